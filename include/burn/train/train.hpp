#pragma once
/// burn::train: the managed training loop, metrics, checkpoints and display.
#include "burn/train/checkpoint.hpp"
#include "burn/train/core.hpp"
#include "burn/train/evaluator.hpp"
#include "burn/train/interrupter.hpp"
#include "burn/train/learner.hpp"
#include "burn/train/lr_finder.hpp"
#include "burn/train/metric.hpp"
#include "burn/train/metric_sequence.hpp"
#include "burn/train/output.hpp"
#include "burn/train/renderer.hpp"
#include "burn/train/supervised.hpp"
#include "burn/train/tensorboard.hpp"
