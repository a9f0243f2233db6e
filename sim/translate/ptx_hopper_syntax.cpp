// The forms of Hopper's asynchronous instructions the simulator models (PTX ISA 8.x), and the scalar
// instructions their wrappers are written with:
//   wgmma.mma_async.sync.aligned.m64n{8..256}k16.f32.{bf16,f16}.{bf16,f16}
//       d{N/2}, a-desc|{a0..a3}, b-desc, scale-d, imm-scale-a, imm-scale-b[, imm-trans-a], imm-trans-b
//   wgmma.fence.sync.aligned;  wgmma.commit_group.sync.aligned;  wgmma.wait_group.sync.aligned N
//   mbarrier.init[.shared[::cta]].b64                                    [bar], count
//   mbarrier.arrive[.expect_tx][.release][.cta|.cluster][.shared[::cta]|.shared::cluster].b64
//                                                                         state|_, [bar][, count|tx bytes]
//   mbarrier.expect_tx[.relaxed][.cta|.cluster][.shared[::cta]].b64       [bar], tx bytes
//   mbarrier.try_wait.parity[.acquire|.relaxed][.cta|.cluster][.shared[::cta]].b64
//                                                                         p, [bar], parity[, time hint]
//   fence.mbarrier_init.release.cluster;  fence.proxy.async[.shared::cta|.shared::cluster|.global]
//   cp.async.bulk.tensor.{1..5}d.shared::cluster.global[.tile].mbarrier::complete_tx::bytes
//       [.multicast::cluster]                                [dst], [map, {c0, ...}], [bar][, cta mask]
//   cp.async.bulk.tensor.{1..5}d.global.shared::cta[.tile].bulk_group     [map, {c0, ...}], [src]
//   cp.async.bulk.commit_group;  cp.async.bulk.wait_group[.read] N
//   setmaxnreg.{inc,dec}.sync.aligned.u32 N
//   barrier.cluster.arrive[.release|.relaxed][.aligned];  barrier.cluster.wait[.acquire][.aligned]
//   mapa.shared::cluster.u32 d, a, cta;  mov.{u32,b32} d, a|%%special
//   setp.{eq,ne,lt,le,gt,ge}.{b32,u32,s32} p, a, b;  selp.{b32,u32,s32} d, a, b, p
//   ex2.approx[.ftz].f32 d, a
#include <algorithm>
#include <initializer_list>

#include "ptx_syntax.hpp"

namespace sim::ptx {
namespace {

bool one_of(std::string_view s, std::initializer_list<std::string_view> options) {
  return std::find(options.begin(), options.end(), s) != options.end();
}

// Consumes q[i] if it is one of `options`.
bool take(const std::vector<std::string_view>& q, size_t& i,
          std::initializer_list<std::string_view> options) {
  if (i < q.size() && one_of(q[i], options)) {
    ++i;
    return true;
  }
  return false;
}

bool operand_type(std::string_view s, OperandType& t) {
  if (s == "bf16")
    t = OperandType::bf16;
  else if (s == "f16")
    t = OperandType::f16;
  else
    return false;
  return true;
}

// wgmma.mma_async.sync.aligned.m64nNk16.f32.<a>.<b>
bool classify_wgmma_mma(Instruction& ins, const std::vector<std::string_view>& q, std::string& why) {
  ins.opcode = Opcode::wgmma;
  int n = 0;
  const std::string_view shape = q.size() > 4 ? q[4] : "";
  if (shape.starts_with("m64n") && shape.ends_with("k16")) {
    for (const char c : shape.substr(4, shape.size() - 7)) n = c >= '0' && c <= '9' ? n * 10 + (c - '0') : -1;
  }
  const bool ok = q.size() == 8 && q[2] == "sync" && q[3] == "aligned" && n >= 8 && n <= 256 && n % 8 == 0 &&
                  q[5] == "f32" && operand_type(q[6], ins.a_type) && operand_type(q[7], ins.b_type) &&
                  ins.a_type == ins.b_type;
  if (!ok) {
    why =
        "the simulator models wgmma.mma_async.sync.aligned.m64nNk16.f32.{bf16,f16}.{bf16,f16} (N = 8, 16, "
        "..., 256; A and B of one type, fp32 accumulators)";
    return false;
  }
  ins.m = 64;
  ins.n = n;
  ins.k = 16;
  return true;
}

bool classify_wgmma(Instruction& ins, const std::vector<std::string_view>& q, std::string& why) {
  if (q.size() > 1 && q[1] == "mma_async") return classify_wgmma_mma(ins, q, why);
  const bool sync_aligned = q.size() == 4 && q[2] == "sync" && q[3] == "aligned";
  if (sync_aligned && q[1] == "fence") {
    ins.opcode = Opcode::wgmma_fence;
    return true;
  }
  if (sync_aligned && q[1] == "commit_group") {
    ins.opcode = Opcode::wgmma_commit;
    return true;
  }
  if (sync_aligned && q[1] == "wait_group") {
    ins.opcode = Opcode::wgmma_wait;
    return true;
  }
  why =
      "the simulator models wgmma.mma_async, wgmma.fence, wgmma.commit_group and wgmma.wait_group, each "
      ".sync.aligned";
  return false;
}

// The optional semantics, scope and state space of an mbarrier instruction, then .b64.
bool mbarrier_tail(const std::vector<std::string_view>& q, size_t i, bool remote_allowed) {
  take(q, i, {"release", "acquire", "relaxed"});
  take(q, i, {"cta", "cluster"});
  if (!take(q, i, {"shared", "shared::cta"}) && remote_allowed) take(q, i, {"shared::cluster"});
  return i + 1 == q.size() && q[i] == "b64";
}

bool classify_mbarrier(Instruction& ins, const std::vector<std::string_view>& q, std::string& why) {
  bool ok = false;
  if (q.size() > 1 && q[1] == "init") {
    ins.opcode = Opcode::mbarrier_init;
    ok = mbarrier_tail(q, 2, false);
  } else if (q.size() > 1 && q[1] == "arrive") {
    ins.opcode = Opcode::mbarrier_arrive;
    size_t i = 2;
    ins.expect_tx = take(q, i, {"expect_tx"});
    ok = mbarrier_tail(q, i, true);
  } else if (q.size() > 1 && q[1] == "expect_tx") {
    ins.opcode = Opcode::mbarrier_expect_tx;
    ok = mbarrier_tail(q, 2, false);
  } else if (q.size() > 2 && q[1] == "try_wait" && q[2] == "parity") {
    ins.opcode = Opcode::mbarrier_try_wait;
    ok = mbarrier_tail(q, 3, false);
  }
  if (!ok)
    why =
        "the simulator models mbarrier.init, mbarrier.arrive[.expect_tx], mbarrier.expect_tx and "
        "mbarrier.try_wait.parity on .shared::cta barriers (.b64)";
  return ok;
}

bool classify_fence(Instruction& ins, const std::vector<std::string_view>& q, std::string& why) {
  if (q.size() == 4 && q[1] == "mbarrier_init" && q[2] == "release" && q[3] == "cluster") {
    ins.opcode = Opcode::fence_mbarrier_init;
    return true;
  }
  if (q.size() >= 3 && q.size() <= 4 && q[1] == "proxy" && q[2] == "async" &&
      (q.size() == 3 || one_of(q[3], {"shared::cta", "shared::cluster", "global"}))) {
    ins.opcode = Opcode::fence_proxy_async;
    return true;
  }
  why = "the simulator models fence.mbarrier_init.release.cluster and fence.proxy.async[.shared::cta]";
  return false;
}

// cp.async.bulk.*: q[0..2] = cp, async, bulk.
bool classify_bulk(Instruction& ins, const std::vector<std::string_view>& q, std::string& why) {
  if (q.size() == 4 && q[3] == "commit_group") {
    ins.opcode = Opcode::bulk_commit;
    return true;
  }
  if ((q.size() == 4 || (q.size() == 5 && q[4] == "read")) && q[3] == "wait_group") {
    ins.opcode = Opcode::bulk_wait;
    return true;
  }
  bool ok = q.size() > 6 && q[3] == "tensor" && q[4].size() == 2 && q[4][1] == 'd' && q[4][0] >= '1' &&
            q[4][0] <= '5';
  if (ok) {
    ins.dimensions = q[4][0] - '0';
    size_t i = 7;
    if (q[5] == "shared::cluster" && q[6] == "global") {
      ins.opcode = Opcode::bulk_tensor_load;
      take(q, i, {"tile"});
      ok = take(q, i, {"mbarrier::complete_tx::bytes"});
      ins.multicast = take(q, i, {"multicast::cluster"});
    } else if (q[5] == "global" && q[6] == "shared::cta") {
      ins.opcode = Opcode::bulk_tensor_store;
      take(q, i, {"tile"});
      ok = take(q, i, {"bulk_group"});
    } else {
      ok = false;
    }
    ok = ok && i == q.size();
  }
  if (!ok)
    why =
        "the simulator models cp.async.bulk.tensor.Nd.shared::cluster.global[.tile].mbarrier::complete_tx::"
        "bytes[.multicast::cluster] (loads), cp.async.bulk.tensor.Nd.global.shared::cta[.tile].bulk_group "
        "(stores), cp.async.bulk.commit_group and cp.async.bulk.wait_group[.read] (no cache hints, no "
        "im2col)";
  return ok;
}

bool classify_scalar(Instruction& ins, const std::vector<std::string_view>& q, std::string& why) {
  const auto integer = [&](std::string_view type) {
    ins.is_signed = type == "s32";
    return one_of(type, {"b32", "u32", "s32"});
  };
  if (q[0] == "setp") {
    ins.opcode = Opcode::setp;
    static constexpr std::pair<std::string_view, Comparison> kComparisons[] = {
        {"eq", Comparison::eq}, {"ne", Comparison::ne}, {"lt", Comparison::lt},
        {"le", Comparison::le}, {"gt", Comparison::gt}, {"ge", Comparison::ge}};
    bool known = false;
    for (const auto& [text, comparison] : kComparisons) {
      if (q.size() == 3 && q[1] == text) {
        ins.comparison = comparison;
        known = true;
      }
    }
    if (known && integer(q[2]) && (q[2] != "b32" || ins.comparison <= Comparison::ne)) return true;
    why = "the simulator models setp.{eq,ne,lt,le,gt,ge}.{u32,s32} and setp.{eq,ne}.b32";
    return false;
  }
  if (q[0] == "selp") {
    ins.opcode = Opcode::selp;
    if (q.size() == 2 && integer(q[1])) return true;
    why = "the simulator models selp.{b32,u32,s32}";
    return false;
  }
  if (q[0] == "mov") {
    ins.opcode = Opcode::mov;
    if (q.size() == 2 && integer(q[1])) return true;
    why = "the simulator models mov.{b32,u32,s32} (of a register, a number or a cluster special register)";
    return false;
  }
  if (q[0] == "ex2") {
    ins.opcode = Opcode::ex2;
    ins.flush_subnormals = q.size() == 4 && q[2] == "ftz";
    if (q.size() == (ins.flush_subnormals ? 4u : 3u) && q[1] == "approx" && q.back() == "f32") return true;
    why = "the simulator models ex2.approx.f32 and ex2.approx.ftz.f32";
    return false;
  }
  ins.opcode = Opcode::mapa;
  if (q.size() == 3 && q[1] == "shared::cluster" && q[2] == "u32") return true;
  why = "the simulator models mapa.shared::cluster.u32";
  return false;
}

// Operand letters: 'v' register vector, 'a' address, 't' tensor address, 'n' number or register, 'r' one
// register (a destination: %n or the statement's own), 's' a destination or `_`, 'x' number, register or
// special register; '?' makes the rest optional.
std::string_view hopper_shape(const Instruction& ins) {
  switch (ins.opcode) {
    case Opcode::wgmma:
      return ins.a_in_registers ? "vvnnnnn" : "vnnnnnnn";
    case Opcode::wgmma_wait:
    case Opcode::bulk_wait:
    case Opcode::setmaxnreg:
      return "n";
    case Opcode::mbarrier_init:
      return "an";
    case Opcode::mbarrier_arrive:
      return ins.expect_tx ? "san" : "sa?n";
    case Opcode::mbarrier_expect_tx:
      return "an";
    case Opcode::mbarrier_try_wait:
      return "ran?n";
    case Opcode::bulk_tensor_load:
      return ins.multicast ? "atan" : "ata";
    case Opcode::bulk_tensor_store:
      return "ta";
    case Opcode::setp:
      return "rnn";
    case Opcode::selp:
      return "rnnn";
    case Opcode::mov:
      return "rx";
    case Opcode::mapa:
      return "rnn";
    case Opcode::ex2:
      return "rn";
    default:
      return "";
  }
}

bool fits(const OperandText& o, char letter) {
  const bool plain = !o.address && !o.sink && o.special == SpecialRegister::none && o.coordinates.empty();
  switch (letter) {
    case 'v':
      return plain && !o.immediate && !o.registers.empty();
    case 'a':
      return o.address && o.coordinates.empty();
    case 't':
      return o.address && !o.coordinates.empty() && o.value == 0;
    case 'n':
      return plain && (o.immediate || o.registers.size() == 1);
    case 'r':
      return plain && o.registers.size() == 1;
    case 's':
      return o.sink || (plain && o.registers.size() == 1);
    default:  // 'x'
      return o.special != SpecialRegister::none || (plain && (o.immediate || o.registers.size() == 1));
  }
}

}  // namespace

SpecialRegister special_register(std::string_view name) {
  static constexpr std::pair<std::string_view, SpecialRegister> kNames[] = {
      {"cluster_ctarank", SpecialRegister::cluster_ctarank},
      {"cluster_nctarank", SpecialRegister::cluster_nctarank},
      {"clusterid.x", SpecialRegister::clusterid_x},
      {"clusterid.y", SpecialRegister::clusterid_y},
      {"clusterid.z", SpecialRegister::clusterid_z},
      {"nclusterid.x", SpecialRegister::nclusterid_x},
      {"nclusterid.y", SpecialRegister::nclusterid_y},
      {"nclusterid.z", SpecialRegister::nclusterid_z},
      {"cluster_ctaid.x", SpecialRegister::cluster_ctaid_x},
      {"cluster_ctaid.y", SpecialRegister::cluster_ctaid_y},
      {"cluster_ctaid.z", SpecialRegister::cluster_ctaid_z},
      {"cluster_nctaid.x", SpecialRegister::cluster_nctaid_x},
      {"cluster_nctaid.y", SpecialRegister::cluster_nctaid_y},
      {"cluster_nctaid.z", SpecialRegister::cluster_nctaid_z},
  };
  for (const auto& [text, special] : kNames)
    if (name == text) return special;
  return SpecialRegister::none;
}

bool classify_hopper(Instruction& ins, const std::vector<std::string_view>& q, std::string& why) {
  const std::string_view op = q[0];
  if (op == "wgmma") return classify_wgmma(ins, q, why);
  if (op == "mbarrier") return classify_mbarrier(ins, q, why);
  if (op == "fence") return classify_fence(ins, q, why);
  if (op == "cp" && q.size() > 2 && q[1] == "async" && q[2] == "bulk") return classify_bulk(ins, q, why);
  if (op == "setmaxnreg") {
    ins.opcode = Opcode::setmaxnreg;
    ins.increase = q.size() > 1 && q[1] == "inc";
    if (q.size() == 5 && one_of(q[1], {"inc", "dec"}) && q[2] == "sync" && q[3] == "aligned" && q[4] == "u32")
      return true;
    why = "the simulator models setmaxnreg.{inc,dec}.sync.aligned.u32";
    return false;
  }
  if (op == "barrier" && q.size() > 2 && q[1] == "cluster") {
    size_t i = 3;
    if (q[2] == "arrive") {
      ins.opcode = Opcode::cluster_arrive;
      take(q, i, {"release", "relaxed"});
    } else if (q[2] == "wait") {
      ins.opcode = Opcode::cluster_wait;
      take(q, i, {"acquire"});
    } else {
      i = 0;
    }
    take(q, i, {"aligned"});
    if (i == q.size()) return true;
    why = "the simulator models barrier.cluster.arrive and barrier.cluster.wait (for a cluster of one block)";
    return false;
  }
  if (one_of(op, {"setp", "selp", "mov", "mapa", "ex2"})) return classify_scalar(ins, q, why);
  return false;  // none of Hopper's: `why` stays empty
}

bool hopper_operands_fit(const Instruction& ins, std::string& why) {
  const std::string_view shape = hopper_shape(ins);
  const size_t optional = shape.find('?');
  std::string letters(shape);
  if (optional != std::string_view::npos) letters.erase(optional, 1);
  const size_t required = optional == std::string_view::npos ? letters.size() : optional;
  bool ok = ins.operands.size() >= required && ins.operands.size() <= letters.size();
  for (size_t i = 0; ok && i < ins.operands.size(); ++i) ok = fits(ins.operands[i], letters[i]);
  if (ok && ins.opcode == Opcode::wgmma) {
    ok = ins.operands[0].registers.size() == static_cast<size_t>(ins.n / 2) &&
         (!ins.a_in_registers || ins.operands[1].registers.size() == 4);
    if (!ok)
      why = "operands of " + ins.name + " are {d0..d" + std::to_string(ins.n / 2 - 1) +
            "} (fp32 accumulators), a-desc or {a0..a3}, b-desc, scale-d, imm-scale-a, imm-scale-b" +
            (ins.a_in_registers ? "" : ", imm-trans-a") + ", imm-trans-b";
    return ok;
  }
  if (ok && (ins.opcode == Opcode::bulk_tensor_load || ins.opcode == Opcode::bulk_tensor_store)) {
    const OperandText& tensor = ins.operands[ins.opcode == Opcode::bulk_tensor_load ? 1 : 0];
    ok = tensor.coordinates.size() == static_cast<size_t>(ins.dimensions);
    if (!ok) why = ins.name + " takes " + std::to_string(ins.dimensions) + " coordinates: [map, {c0, ...}]";
    return ok;
  }
  if (!ok) why = "unexpected operands for " + ins.name;
  return ok;
}

}  // namespace sim::ptx
