#pragma once
/// What a Burnpack file holds, as text (burn's burnpack_inspect example; the `burnpack-inspect` tool
/// prints it): the tensors with dtype, shape, element count, bytes and parameter id, then the totals,
/// the typed scalars and the user metadata.
///
///     store::BurnpackStore in("model.bpk");
///     std::cout << store::burnpack_inspect(in);
#include <string>

#include "burn/store/burnpack.hpp"

namespace burn::store {

/// The report for the store's source (file or bytes). Throws burn::Error when it is not a valid Burnpack.
std::string burnpack_inspect(BurnpackStore& store);

}  // namespace burn::store
