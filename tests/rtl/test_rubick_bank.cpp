// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_bank.v: every configuration instantiated in
// tb_rubick_bank.v against a C++ model of the RAM, cycle by cycle. Checked: read data valid the
// cycle after the address, held while rd_en is low, old data on read-during-write to the same
// address, out-of-range addresses (>= DEPTH) ignored. Words never written are not compared (their
// contents are undefined).
#include "Vtb_rubick_bank.h"
#include "rtl_test.h"

#include <memory>
#include <optional>

namespace {

struct Config {
  const char* name;
  int width, depth, aw;
};

class Bank {
public:
  explicit Bank(const Config& cfg) : cfg_(cfg), mem_(size_t{1} << cfg.aw) {}
  virtual ~Bank() = default;

  // Random inputs for this cycle, with frequent read-during-write collisions and some
  // out-of-range addresses.
  void drive(rtl::Rng& rng) {
    rd_en_ = rng.chance(0.7);
    rd_addr_ = address(rng);
    wr_en_ = rng.chance(0.6);
    wr_addr_ = rng.chance(0.3) ? rd_addr_ : address(rng);
    wr_data_ = rng.value(cfg_.width);
    apply();
  }

  // The model's clock edge (inputs of this cycle).
  void edge() {
    if (rd_en_ && rd_addr_ < uint64_t(cfg_.depth)) rd_data_ = mem_[rd_addr_];
    if (wr_en_ && wr_addr_ < uint64_t(cfg_.depth)) mem_[wr_addr_] = wr_data_;
  }

  void check(long cycle) const {
    if (!rd_data_) return; // nothing defined read yet
    rtl::Value got = rdData();
    if (got != *rd_data_)
      rtl::fail("test_rubick_bank", cycle,
                rtl::mismatch(std::string(cfg_.name) + ".rd_data", got.hex(), rd_data_->hex()));
  }

protected:
  virtual void apply() = 0;
  virtual rtl::Value rdData() const = 0;

  uint64_t address(rtl::Rng& rng) const {
    // Mostly in range; any AW-bit value otherwise.
    return rng.chance(0.85) ? rng.bits(30) % uint64_t(cfg_.depth) : rng.bits(cfg_.aw);
  }

  const Config& cfg_;
  std::vector<std::optional<rtl::Value>> mem_;
  std::optional<rtl::Value> rd_data_;
  bool rd_en_ = false, wr_en_ = false;
  uint64_t rd_addr_ = 0, wr_addr_ = 0;
  rtl::Value wr_data_;
};

// The ports of one instance (their C++ types depend on the widths).
template <class A, class D>
class BankPorts final : public Bank {
public:
  BankPorts(const Config& cfg, CData& rd_en, A& rd_addr, D& rd_data, CData& wr_en, A& wr_addr,
            D& wr_data)
      : Bank(cfg), rd_en_p_(rd_en), rd_addr_p_(rd_addr), rd_data_p_(rd_data), wr_en_p_(wr_en),
        wr_addr_p_(wr_addr), wr_data_p_(wr_data) {}

private:
  void apply() override {
    rd_en_p_ = rd_en_;
    rtl::setBits(rd_addr_p_, 0, cfg_.aw, rd_addr_);
    wr_en_p_ = wr_en_;
    rtl::setBits(wr_addr_p_, 0, cfg_.aw, wr_addr_);
    rtl::put(wr_data_p_, wr_data_);
  }
  rtl::Value rdData() const override { return rtl::get(rd_data_p_, cfg_.width); }

  CData& rd_en_p_;
  A& rd_addr_p_;
  D& rd_data_p_;
  CData& wr_en_p_;
  A& wr_addr_p_;
  D& wr_data_p_;
};

template <class A, class D>
std::unique_ptr<Bank> bank(const Config& cfg, CData& rd_en, A& rd_addr, D& rd_data, CData& wr_en,
                           A& wr_addr, D& wr_data) {
  return std::make_unique<BankPorts<A, D>>(cfg, rd_en, rd_addr, rd_data, wr_en, wr_addr, wr_data);
}

// Must match tb_rubick_bank.v.
constexpr Config kConfigs[] = {
    {"b0", 8, 16, 4}, {"b1", 13, 10, 4}, {"b2", 32, 1, 1},
    {"b3", 16, 5, 6}, {"b4", 40, 12, 4}, {"b5", 70, 3, 2},
};
constexpr int kCycles = 20000;

} // namespace

#define BANK(i, n)                                                                                 \
  bank(kConfigs[i], m.n##_rd_en, m.n##_rd_addr, m.n##_rd_data, m.n##_wr_en, m.n##_wr_addr,         \
       m.n##_wr_data)

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb_rubick_bank m(ctx.get());
  rtl::Rng rng(3);
  std::unique_ptr<Bank> banks[] = {BANK(0, b0), BANK(1, b1), BANK(2, b2),
                                   BANK(3, b3), BANK(4, b4), BANK(5, b5)};

  m.clk = 0;
  m.eval();
  for (long cycle = 0; cycle < kCycles; ++cycle) {
    for (auto& b : banks)
      b->drive(rng);
    m.eval();
    for (auto& b : banks)
      b->edge();
    rtl::tick(m);
    for (auto& b : banks)
      b->check(cycle);
  }
  std::printf("test_rubick_bank: OK (%zu configurations, %d cycles)\n", std::size(banks), kCycles);
  return 0;
}
