#include "burn/store/record.hpp"

#include <cstring>
#include <ostream>

#include "burn/store/tensor_entry.hpp"

namespace burn::store {

int64_t Scalar::as_i64() const {
    switch (kind_) {
        case Kind::i64:
            return i_;
        case Kind::boolean:
            return b_ ? 1 : 0;
        case Kind::u64:
            BURN_CHECK(u_ <= static_cast<uint64_t>(INT64_MAX), "[Scalar] the u64 ", u_, " does not fit i64");
            return static_cast<int64_t>(u_);
        case Kind::f64:
            break;
    }
    BURN_THROW("[Scalar] an f64 scalar (", f_, ") was read as i64; read it with as_f64()");
}

uint64_t Scalar::as_u64() const {
    switch (kind_) {
        case Kind::u64:
            return u_;
        case Kind::boolean:
            return b_ ? 1 : 0;
        case Kind::i64:
            BURN_CHECK(i_ >= 0, "[Scalar] the i64 ", i_, " is negative and does not fit u64");
            return static_cast<uint64_t>(i_);
        case Kind::f64:
            break;
    }
    BURN_THROW("[Scalar] an f64 scalar (", f_, ") was read as u64; read it with as_f64()");
}

double Scalar::as_f64() const {
    switch (kind_) {
        case Kind::f64:
            return f_;
        case Kind::i64:
            return static_cast<double>(i_);
        case Kind::u64:
            return static_cast<double>(u_);
        case Kind::boolean:
            return b_ ? 1.0 : 0.0;
    }
    return f_;
}

bool Scalar::as_bool() const {
    BURN_CHECK(kind_ == Kind::boolean, "[Scalar] a ", *this, " scalar was read as bool");
    return b_;
}

bool operator==(const Scalar& a, const Scalar& b) {
    if (a.kind_ != b.kind_) return false;
    switch (a.kind_) {
        case Scalar::Kind::i64:
            return a.i_ == b.i_;
        case Scalar::Kind::u64:
            return a.u_ == b.u_;
        case Scalar::Kind::f64:
            return a.f_ == b.f_ || (a.f_ != a.f_ && b.f_ != b.f_);
        case Scalar::Kind::boolean:
            return a.b_ == b.b_;
    }
    return false;
}

std::ostream& operator<<(std::ostream& os, const Scalar& s) {
    switch (s.kind()) {
        case Scalar::Kind::i64:
            return os << "i64 " << s.as_i64();
        case Scalar::Kind::u64:
            return os << "u64 " << s.as_u64();
        case Scalar::Kind::f64:
            return os << "f64 " << s.as_f64();
        case Scalar::Kind::boolean:
            return os << "bool " << (s.as_bool() ? "true" : "false");
    }
    return os;
}

TensorData transpose_2d(const TensorData& data) {
    const Dims& s = data.shape();
    BURN_CHECK_KIND(s.rank() == 2, shape, "[transpose_2d] needs a matrix, got shape ", s);
    const int64_t r = s[0], c = s[1];
    const std::size_t n = size_of(data.dtype());
    std::vector<uint8_t> out(data.bytes().size());
    const uint8_t* in = data.bytes().data();
    for (int64_t i = 0; i < r; ++i)
        for (int64_t j = 0; j < c; ++j)
            std::memcpy(out.data() + static_cast<std::size_t>(j * r + i) * n,
                        in + static_cast<std::size_t>(i * c + j) * n, n);
    return TensorData(std::move(out), Dims{c, r}, data.dtype());
}

TensorEntry transposed(TensorEntry e) {
    e.shape = Dims{e.shape[1], e.shape[0]};
    e.read = [read = std::move(e.read)] { return transpose_2d(read()); };
    return e;
}

TensorEntry concat_rows(std::string name, const std::vector<TensorEntry>& parts) {
    TensorEntry out;
    out.name = std::move(name);
    out.dtype = parts.front().dtype;
    out.shape = parts.front().shape;
    out.shape[0] = 0;
    std::vector<std::function<TensorData()>> reads;
    for (const auto& p : parts) {
        Dims a = p.shape, b = parts.front().shape;
        a[0] = b[0] = 0;
        BURN_CHECK_KIND(p.dtype == out.dtype && a == b, shape, "[store] cannot concatenate '", p.name, "' (",
                        p.dtype, " ", p.shape, ") with '", parts.front().name, "' (", parts.front().dtype,
                        " ", parts.front().shape, ") into '", out.name, "'");
        out.shape[0] += p.shape[0];
        reads.push_back(p.read);
    }
    Dims shape = out.shape;
    DType dtype = out.dtype;
    out.read = [reads, shape, dtype] {
        std::vector<uint8_t> bytes;
        for (const auto& r : reads) {
            TensorData d = r();
            bytes.insert(bytes.end(), d.bytes().begin(), d.bytes().end());
        }
        return TensorData(std::move(bytes), shape, dtype);
    };
    return out;
}

TensorData slice_rows(const TensorData& data, int64_t row_begin, int64_t row_end) {
    const Dims& s = data.shape();
    BURN_CHECK_KIND(s.rank() >= 1 && row_begin >= 0 && row_begin <= row_end && row_end <= s[0], shape,
                    "[slice_rows] rows [", row_begin, ", ", row_end, ") of a tensor of shape ", s);
    const std::size_t row = s[0] == 0 ? 0 : data.bytes().size() / static_cast<std::size_t>(s[0]);
    Dims out = s;
    out[0] = row_end - row_begin;
    auto first =
        data.bytes().begin() + static_cast<std::ptrdiff_t>(row * static_cast<std::size_t>(row_begin));
    std::vector<uint8_t> bytes(first,
                               first + static_cast<std::ptrdiff_t>(row * static_cast<std::size_t>(out[0])));
    return TensorData(std::move(bytes), out, data.dtype());
}

}  // namespace burn::store
