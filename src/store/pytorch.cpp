#include "burn/store/pytorch.hpp"

#include "burn/tensor/ops.hpp"
#include "store/format.hpp"
#include "store/pytorch_reader.hpp"

namespace burn::store {

PytorchStore::PytorchStore() {
    opts_.load_adapter = std::make_shared<PytorchAdapter>();
}

PytorchStore::PytorchStore(std::filesystem::path path) : PytorchStore() {
    path_ = std::move(path);
}

PytorchStore PytorchStore::from_bytes(std::vector<uint8_t> bytes) {
    PytorchStore s;
    s.bytes_ = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
    return s;
}

PytorchStore& PytorchStore::with_top_level_key(std::string key) {
    top_level_key_ = std::move(key);
    return *this;
}

bool PytorchStore::zip_supported() {
    return detail::pytorch_zip_supported();
}

std::vector<TensorEntry> PytorchStore::read_entries() {
    // Without mmap(true) the whole file is read into memory (as torch.load does), so a file truncated
    // meanwhile cannot raise SIGBUS; tensors are then viewed in that copy.
    detail::ByteView view =
        bytes_ ? detail::view_vector(bytes_) : detail::file_bytes(path_, "PytorchStore", opts_.mmap);
    return detail::read_pytorch(view, top_level_key_, opts_.limits, path_.string());
}

void PytorchStore::write_entries(std::vector<TensorEntry>) {
    BURN_THROW(
        "[PytorchStore] PyTorch files are read-only here: save with SafetensorsStore and "
        ".with_save_adapter(std::make_shared<store::BurnToPytorchAdapter>()) for a file PyTorch loads");
}

std::map<std::string, TensorAny> PytorchStore::load_tensors(const Device& device) {
    std::map<std::string, TensorAny> out;
    for (const auto& e : entries()) {
        BURN_CHECK(e.unsupported.empty(), "[PytorchStore] tensor '", e.name, "': ", e.unsupported);
        out[e.name] = ops::from_data(e.read(), device);
    }
    return out;
}

}  // namespace burn::store
