#pragma once
/// The prelude: what nearly every program needs. `#include <burn/burn.hpp>` and `using namespace burn;`.
#include "burn/config/config.hpp"
#include "burn/core/device.hpp"
#include "burn/core/dtype.hpp"
#include "burn/core/error.hpp"
#include "burn/core/shape.hpp"
#include "burn/tensor/activation.hpp"
#include "burn/tensor/data.hpp"
#include "burn/tensor/tensor.hpp"
