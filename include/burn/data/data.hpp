#pragma once
/// burn::data: datasets, transforms, batchers, data loaders and MNIST.
#include "burn/data/batcher.hpp"
#include "burn/data/dataloader.hpp"
#include "burn/data/dataset.hpp"
#include "burn/data/mnist.hpp"
#include "burn/data/rng.hpp"
#include "burn/data/transform.hpp"
