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

bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (const char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// `%n`, or a register the statement declared: -1 - its index among `names`.
bool parse_register(std::string_view s, const std::vector<std::string>& names, int& index) {
  s = trim(s);
  int64_t value = 0;
  if (s.size() >= 2 && s[0] == '%' && parse_number(s.substr(1), value)) {
    index = static_cast<int>(value);
    return true;
  }
  for (size_t i = 0; i < names.size(); ++i) {
    if (s == names[i]) {
      index = -1 - static_cast<int>(i);
      return true;
    }
  }
  return false;
}

bool parse_register_list(std::string_view s, const std::vector<std::string>& names, std::vector<int>& out) {
  for (std::string_view part : split(s, ',')) {
    int index = 0;
    if (!parse_register(part, names, index)) return false;
    out.push_back(index);
  }
  return true;
}

bool parse_operand(std::string_view s, const std::vector<std::string>& names, OperandText& operand) {
  if (s.size() >= 2 && s.front() == '{' && s.back() == '}')
    return parse_register_list(s.substr(1, s.size() - 2), names, operand.registers);
  if (s.size() >= 2 && s.front() == '[' && s.back() == ']') {
    operand.address = true;
    std::string_view inner = trim(s.substr(1, s.size() - 2));
    const std::vector<std::string_view> parts = split(inner, ',');
    if (parts.size() == 2) {  // a tensor address: [map, {c0, c1, ...}]
      const std::string_view coordinates = parts[1];
      if (coordinates.size() < 2 || coordinates.front() != '{' || coordinates.back() != '}') return false;
      inner = parts[0];
      if (!parse_register_list(coordinates.substr(1, coordinates.size() - 2), names, operand.coordinates))
        return false;
    }
    const size_t plus = inner.find('+');
    if (plus != std::string_view::npos) {
      if (!parse_number(inner.substr(plus + 1), operand.value)) return false;
      inner = inner.substr(0, plus);
    }
    int index = 0;
    if (!parse_register(inner, names, index)) return false;
    operand.registers.push_back(index);
    return true;
  }
  if (s == "_") {
    operand.sink = true;
    return true;
  }
  // %%name in a template with operands, %name in one without: a special register.
  const std::string_view special = s.starts_with("%%") ? s.substr(2) : s.starts_with("%") ? s.substr(1) : "";
  if (!special.empty() && !std::isdigit(static_cast<unsigned char>(special[0]))) {
    operand.special = special_register(special);
    return operand.special != SpecialRegister::none;
  }
  int index = 0;
  if (parse_register(s, names, index)) {
    operand.registers.push_back(index);
    return true;
  }
  operand.immediate = true;
  return parse_number(s, operand.value);
}

// `.reg .pred p;`, `.reg .b32 a, b;`: the statement's own registers.
bool parse_declaration(std::string_view statement, std::vector<std::string>& names) {
  std::string_view rest = trim(statement.substr(4));
  while (!rest.empty() && rest.front() == '.') {  // the type
    size_t end = 0;
    while (end < rest.size() && !std::isspace(static_cast<unsigned char>(rest[end]))) ++end;
    rest = trim(rest.substr(end));
  }
  if (rest.empty()) return false;
  for (std::string_view name : split(rest, ',')) {
    if (!is_identifier(name)) return false;
    names.emplace_back(name);
  }
  return true;
}

// The opcode's dot-separated qualifiers, checked against what the simulator models.
bool classify(Instruction& ins, std::string& why) {
  std::vector<std::string_view> q;
  for (std::string_view rest = ins.name; !rest.empty();) {
    const size_t dot = rest.find('.');
    q.push_back(rest.substr(0, dot));
    rest = dot == std::string_view::npos ? std::string_view{} : rest.substr(dot + 1);
  }
  if (q.empty()) {
    why = "an empty instruction";
    return false;
  }
  if (classify_hopper(ins, q, why)) return true;
  if (!why.empty()) return false;
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
  why =
      "the simulator models mma.sync (m16n8k16, m16n8k8), ldmatrix, cp.async, Hopper's wgmma, mbarrier, "
      "cp.async.bulk.tensor, fence.proxy.async and setmaxnreg, and ex2.approx "
      "(sim/translate/ptx_syntax.hpp); no other inline PTX";
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
  if (ins.opcode >= Opcode::wgmma) return hopper_operands_fit(ins, why);
  const std::string_view shape = operand_shape(ins);
  const size_t required = shape.find('?') == std::string_view::npos ? shape.size() : shape.find('?');
  bool ok = ins.operands.size() >= required && ins.operands.size() <= shape.size();
  for (size_t i = 0; ok && i < ins.operands.size(); ++i) {
    const OperandText& o = ins.operands[i];
    if (o.sink || o.special != SpecialRegister::none || !o.coordinates.empty()) ok = false;
    if (shape[i] == 'v') ok = ok && !o.address && !o.immediate;
    if (shape[i] == 'a') ok = ok && o.address;
    if (shape[i] == 'n' || shape[i] == '?') ok = ok && !o.address && (o.immediate || o.registers.size() == 1);
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
    if (statement.starts_with(".reg")) {
      if (!parse_declaration(statement, parsed.registers)) {
        parsed.error = "asm: cannot read the declaration '" + std::string(statement) + "'";
        return parsed;
      }
      continue;
    }
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
        if (!parse_operand(part, parsed.registers, operand)) {
          parsed.error = "asm \"" + ins.name + "\": cannot read the operand '" + std::string(part) + "'";
          return parsed;
        }
        ins.operands.push_back(std::move(operand));
      }
    }
    // wgmma's A is a descriptor (one register) or four registers: the operand itself says which.
    ins.a_in_registers =
        ins.opcode == Opcode::wgmma && ins.operands.size() > 1 && ins.operands[1].registers.size() > 1;
    if (!operands_fit(ins, why)) {
      parsed.error = "asm \"" + ins.name + "\": " + why;
      return parsed;
    }
    parsed.instructions.push_back(std::move(ins));
  }
  return parsed;  // no instructions: asm volatile("" ::: "memory"), a compiler barrier, does nothing
}

}  // namespace sim::ptx
