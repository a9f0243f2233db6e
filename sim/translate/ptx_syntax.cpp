#include "ptx_syntax.hpp"

#include <cctype>
#include <charconv>

namespace sim::ptx {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char separator) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '{' || s[i] == '[') ++depth;
    if (s[i] == '}' || s[i] == ']') --depth;
    if (s[i] == separator && depth == 0) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  parts.push_back(trim(s.substr(start)));
  return parts;
}

bool parse_number(std::string_view s, int64_t& value) {
  s = trim(s);
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value, base);
  return ec == std::errc() && end == s.data() + s.size();
}

bool parse_register(std::string_view s, int& index) {
  s = trim(s);
  int64_t value = 0;
  if (s.size() < 2 || s[0] != '%' || !parse_number(s.substr(1), value)) return false;
  index = static_cast<int>(value);
  return true;
}

bool parse_operand(std::string_view s, OperandText& operand) {
  if (s.size() >= 2 && s.front() == '{' && s.back() == '}') {
    for (std::string_view part : split(s.substr(1, s.size() - 2), ',')) {
      int index = 0;
      if (!parse_register(part, index)) return false;
      operand.registers.push_back(index);
    }
    return true;
  }
  if (s.size() >= 2 && s.front() == '[' && s.back() == ']') {
    operand.address = true;
    std::string_view inner = trim(s.substr(1, s.size() - 2));
    const size_t plus = inner.find('+');
    if (plus != std::string_view::npos) {
      if (!parse_number(inner.substr(plus + 1), operand.value)) return false;
      inner = inner.substr(0, plus);
    }
    int index = 0;
    if (!parse_register(inner, index)) return false;
    operand.registers.push_back(index);
    return true;
  }
  int index = 0;
  if (parse_register(s, index)) {
    operand.registers.push_back(index);
    return true;
  }
  operand.immediate = true;
  return parse_number(s, operand.value);
}

// The opcode's dot-separated qualifiers, checked against what the simulator models.
bool classify(Instruction& ins, std::string& why) {
  std::vector<std::string_view> q;
  for (std::string_view rest = ins.name; !rest.empty();) {
    const size_t dot = rest.find('.');
    q.push_back(rest.substr(0, dot));
    rest = dot == std::string_view::npos ? std::string_view{} : rest.substr(dot + 1);
  }
  auto operand_type = [](std::string_view s, OperandType& t) {
    if (s == "f16")
      t = OperandType::f16;
    else if (s == "bf16")
      t = OperandType::bf16;
    else if (s == "tf32")
      t = OperandType::tf32;
    else
      return false;
    return true;
  };
  if (q[0] == "mma") {
    ins.opcode = Opcode::mma;
    const bool shape = q.size() == 10 && q[1] == "sync" && q[2] == "aligned" &&
                       (q[3] == "m16n8k16" || q[3] == "m16n8k8") && q[4] == "row" && q[5] == "col" &&
                       q[6] == "f32" && operand_type(q[7], ins.a_type) && operand_type(q[8], ins.b_type) &&
                       q[9] == "f32";
    if (!shape || ins.a_type != ins.b_type || (ins.a_type == OperandType::tf32 && q[3] != "m16n8k8")) {
      why =
          "the simulator models mma.sync.aligned.{m16n8k16,m16n8k8}.row.col.f32.{f16,bf16}.{f16,bf16}.f32 "
          "(A and B of one type) and mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32";
      return false;
    }
    ins.m = 16;
    ins.n = 8;
    ins.k = q[3] == "m16n8k16" ? 16 : 8;
    return true;
  }
  if (q[0] == "ldmatrix") {
    ins.opcode = Opcode::ldmatrix;
    size_t i = 4;
    bool ok = q.size() >= 7 && q[1] == "sync" && q[2] == "aligned" && q[3] == "m8n8" &&
              (q[i] == "x1" || q[i] == "x2" || q[i] == "x4");
    if (ok) {
      ins.matrices = q[i][1] - '0';
      ++i;
      if (i < q.size() && q[i] == "trans") {
        ins.trans = true;
        ++i;
      }
      ok = i + 2 == q.size() && (q[i] == "shared" || q[i] == "shared::cta") && q[i + 1] == "b16";
    }
    if (!ok) why = "the simulator models ldmatrix.sync.aligned.m8n8.{x1,x2,x4}[.trans].shared.b16";
    return ok;
  }
  if (q.size() >= 2 && q[0] == "cp" && q[1] == "async") {
    if (q.size() == 3 && q[2] == "commit_group") {
      ins.opcode = Opcode::commit_group;
      return true;
    }
    if (q.size() == 3 && q[2] == "wait_group") {
      ins.opcode = Opcode::wait_group;
      return true;
    }
    if (q.size() == 3 && q[2] == "wait_all") {
      ins.opcode = Opcode::wait_all;
      return true;
    }
    ins.opcode = Opcode::cp_async;
    bool ok = q.size() >= 5 && (q[2] == "ca" || q[2] == "cg") &&
              (q[3] == "shared" || q[3] == "shared::cta") && q[4] == "global";
    for (size_t i = 5; ok && i < q.size(); ++i)
      ok = q[i] == "L2::64B" || q[i] == "L2::128B" || q[i] == "L2::256B";
    ins.bypass_l1 = ok && q[2] == "cg";
    if (!ok)
      why =
          "the simulator models cp.async.{ca,cg}.shared.global[.L2::NB], cp.async.commit_group, "
          "cp.async.wait_group and cp.async.wait_all";
    return ok;
  }
  why = "the simulator models mma.sync (m16n8k16, m16n8k8), ldmatrix and cp.async; no other inline PTX";
  return false;
}

// The operands each instruction takes, in order: 'v' a register vector, 'a' an address, 'n' a
// number or register, '?' an optional number or register.
std::string_view operand_shape(const Instruction& ins) {
  switch (ins.opcode) {
    case Opcode::mma:
      return "vvvv";
    case Opcode::ldmatrix:
      return "va";
    case Opcode::cp_async:
      return "aan?";
    case Opcode::wait_group:
      return "n";
    default:
      return "";
  }
}

bool operands_fit(const Instruction& ins, std::string& why) {
  const std::string_view shape = operand_shape(ins);
  const size_t required = shape.find('?') == std::string_view::npos ? shape.size() : shape.find('?');
  bool ok = ins.operands.size() >= required && ins.operands.size() <= shape.size();
  for (size_t i = 0; ok && i < ins.operands.size(); ++i) {
    const OperandText& o = ins.operands[i];
    if (shape[i] == 'v') ok = !o.address && !o.immediate;
    if (shape[i] == 'a') ok = o.address;
    if (shape[i] == 'n' || shape[i] == '?') ok = !o.address && (o.immediate || o.registers.size() == 1);
  }
  if (ok && ins.opcode == Opcode::mma) {
    // A 32-bit register holds two 16-bit elements or one tf32: an m16n8k8 tf32 has k16's register counts.
    const bool wide = ins.k == 16 || ins.a_type == OperandType::tf32;
    const size_t a = wide ? 4 : 2, b = wide ? 2 : 1;
    ok = ins.operands[0].registers.size() == 4 && ins.operands[1].registers.size() == a &&
         ins.operands[2].registers.size() == b && ins.operands[3].registers.size() == 4;
    if (!ok)
      why = "operands of " + ins.name + " are {d0..d3}, {a0..a" + std::to_string(a - 1) + "}, {b0" +
            (b == 2 ? ",b1" : "") + "}, {c0..c3}";
    return ok;
  }
  if (ok && ins.opcode == Opcode::ldmatrix)
    ok = ins.operands[0].registers.size() == static_cast<size_t>(ins.matrices);
  if (!ok) why = "unexpected operands for " + ins.name;
  return ok;
}

}  // namespace

Parsed parse(std::string_view text) {
  Parsed parsed;
  text = trim(text);
  if (text.size() >= 2 && text.front() == '{' && text.back() == '}')
    text = trim(text.substr(1, text.size() - 2));
  for (std::string_view statement : split(text, ';')) {
    if (statement.empty()) continue;
    Instruction ins;
    size_t name_end = 0;
    while (name_end < statement.size() && !std::isspace(static_cast<unsigned char>(statement[name_end])))
      ++name_end;
    ins.name = std::string(statement.substr(0, name_end));
    std::string why;
    if (!classify(ins, why)) {
      parsed.error = "asm \"" + ins.name + "\" is not modelled: " + why;
      return parsed;
    }
    const std::string_view operands = trim(statement.substr(name_end));
    if (!operands.empty()) {
      for (std::string_view part : split(operands, ',')) {
        OperandText operand;
        if (!parse_operand(part, operand)) {
          parsed.error = "asm \"" + ins.name + "\": cannot read the operand '" + std::string(part) + "'";
          return parsed;
        }
        ins.operands.push_back(std::move(operand));
      }
    }
    if (!operands_fit(ins, why)) {
      parsed.error = "asm \"" + ins.name + "\": " + why;
      return parsed;
    }
    parsed.instructions.push_back(std::move(ins));
  }
  return parsed;  // no instructions: asm volatile("" ::: "memory"), a compiler barrier, does nothing
}

}  // namespace sim::ptx
