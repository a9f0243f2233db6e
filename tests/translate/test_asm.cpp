// Inline PTX: modelled asm statements -> ::sim::ptx::execute, anything else an error naming it.
#include <doctest/doctest.h>

#include "translate_test_support.hpp"

TEST_CASE("an mma statement becomes execute() with typed operands in %n order") {
  const char* source =
      "asm volatile(\"mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, "
      "{%7,%8,%9,%10};\\n\"\n"
      "    : \"=f\"(d[0]), \"=f\"(d[1]), \"=f\"(d[2]), \"=f\"(d[3])\n"
      "    : \"r\"(a[0]), \"r\"(a[1]), \"r\"(b), \"f\"(c[0]), \"f\"(c[1]), \"f\"(c[2]), \"f\"(c[3]));\n"
      "next();\n";
  const std::string out = translated(source);
  CHECK(out ==
        "::sim::ptx::execute(\"mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, "
        "{%6}, "
        "{%7,%8,%9,%10};\\n\"\n"
        "    , {::sim::ptx::output<'f'>(d[0]), ::sim::ptx::output<'f'>(d[1]), ::sim::ptx::output<'f'>(d[2]), "
        "::sim::ptx::output<'f'>(d[3]), ::sim::ptx::input<'r'>(a[0]), ::sim::ptx::input<'r'>(a[1]), "
        "::sim::ptx::input<'r'>(b), ::sim::ptx::input<'f'>(c[0]), ::sim::ptx::input<'f'>(c[1]), "
        "::sim::ptx::input<'f'>(c[2]), ::sim::ptx::input<'f'>(c[3])}\n);\n"
        "next();\n");
  CHECK(count_newlines(out) == count_newlines(source));
}

TEST_CASE("in-out operands, '::' with no outputs, clobbers and __asm__ __volatile__") {
  CHECK(
      translated(
          "asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\\n\" :: \"r\"(dst), \"l\"(src));") ==
      "::sim::ptx::execute(\"cp.async.cg.shared.global [%0], [%1], 16;\\n\" , {::sim::ptx::input<'r'>(dst), "
      "::sim::ptx::input<'l'>(src)});");
  CHECK(translated("__asm__ __volatile__(\"cp.async.wait_group %0;\" : : \"n\"(N - 1) : \"memory\");") ==
        "::sim::ptx::execute(\"cp.async.wait_group %0;\" , {::sim::ptx::input<'n'>(N - 1)});");
  CHECK(translated("asm(\"cp.async.commit_group;\");") ==
        "::sim::ptx::execute(\"cp.async.commit_group;\", {});");
  CHECK(translated(
            "asm volatile(\"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
            "{%8,%9}, {%0,%1,%2,%3};\" : \"+f\"(c0), \"+f\"(c1), \"+f\"(c2), \"+f\"(c3) : \"r\"(a0), "
            "\"r\"(a1), \"r\"(a2), \"r\"(a3), \"r\"(b0), \"r\"(b1));")
            .find("::sim::ptx::in_out<'f'>(c0), ::sim::ptx::in_out<'f'>(c1)") != std::string::npos);
  CHECK(translated("asm volatile(\"\" ::: \"memory\");") == "::sim::ptx::execute(\"\" , {});");
}

TEST_CASE("ldmatrix variants and cp.async forms are modelled") {
  for (const char* op : {"ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];",
                         "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];",
                         "ldmatrix.sync.aligned.m8n8.x4.shared::cta.b16 {%0,%1,%2,%3}, [%4];",
                         "cp.async.ca.shared.global.L2::128B [%0], [%1], 8, %2;", "cp.async.wait_all;",
                         "{\\n cp.async.wait_group 2;\\n}"}) {
    CAPTURE(op);
    CHECK(translation_errors(std::string("asm volatile(\"") + op + "\" :: \"r\"(x));").empty());
  }
}

TEST_CASE("an asm statement the simulator does not model is an error that names it") {
  const auto errors = translation_errors("void f() {\n  asm volatile(\"wgmma.fence.sync.aligned;\");\n}\n");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find("t.cu:2") != std::string::npos);
  CHECK(errors[0].find("wgmma.fence.sync.aligned") != std::string::npos);
  CHECK(errors[0].find("not modelled") != std::string::npos);
  const auto f16_accumulators = translation_errors(
      "asm(\"mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, "
      "{%8,%9};\");");
  REQUIRE(f16_accumulators.size() == 1);
  CHECK(f16_accumulators[0].find("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16") != std::string::npos);
  CHECK(translation_errors(
            "asm(\"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4}, {%5}, {%6};\");")
            .size() == 1);  // wrong operand counts
  CHECK(translation_errors("#define MMA asm volatile(\"cp.async.commit_group;\")\n").size() == 1);
}

TEST_CASE(
    "tf32 mma: m16n8k8 with 4 A and 2 B registers is modelled; k16, 16-bit counts or mixed types are not") {
  CHECK(translation_errors("asm(\"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, "
                           "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\" : \"+f\"(c0), \"+f\"(c1), \"+f\"(c2), "
                           "\"+f\"(c3) : \"r\"(a0), \"r\"(a1), \"r\"(a2), \"r\"(a3), \"r\"(b0), \"r\"(b1));")
            .empty());
  for (const char* op :
       {// tf32 exists as m16n8k4 and m16n8k8 only; the simulator models k8
        "mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%0,%1,%2,%3};",
        // a bf16 m16n8k8's register counts with tf32 operands
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};",
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%0,%1,%2,%3};"}) {
    CAPTURE(op);
    CHECK(translation_errors(std::string("asm(\"") + op + "\" :: \"r\"(x));").size() == 1);
  }
}
