#pragma once
/// burn::data: datasets, transforms, batchers, data loaders, MNIST, Fashion-MNIST and CIFAR, CSV and
/// JSON-lines files, images. SQLite is in burn/data/sqlite.hpp (an optional part of the build).
#include "burn/data/batcher.hpp"
#include "burn/data/cifar.hpp"
#include "burn/data/csv.hpp"
#include "burn/data/dataloader.hpp"
#include "burn/data/dataset.hpp"
#include "burn/data/fake.hpp"
#include "burn/data/fashion_mnist.hpp"
#include "burn/data/idx.hpp"
#include "burn/data/image.hpp"
#include "burn/data/image_folder.hpp"
#include "burn/data/image_transform.hpp"
#include "burn/data/json_rows.hpp"
#include "burn/data/mnist.hpp"
#include "burn/data/rng.hpp"
#include "burn/data/split.hpp"
#include "burn/data/transform.hpp"
