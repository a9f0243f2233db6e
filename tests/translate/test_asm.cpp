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
  const auto errors = translation_errors(
      "void f() {\n  asm volatile(\"stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};\");\n}\n");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find("t.cu:2") != std::string::npos);
  CHECK(errors[0].find("stmatrix.sync.aligned.m8n8.x1.shared.b16") != std::string::npos);
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

TEST_CASE("Hopper's asynchronous path as puzzle 11's wrappers write it is modelled") {
  for (const char* op :
       {"mbarrier.init.shared::cta.b64 [%0], %1;", "fence.mbarrier_init.release.cluster;",
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;", "mbarrier.arrive.shared::cta.b64 _, [%0];",
        "{\\n.reg .pred p;\\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\\nselp.u32 %0, 1, 0, "
        "p;\\n}",
        "{\\n.reg .b32 remote;\\nmapa.shared::cluster.u32 remote, %0, %1;\\n"
        "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];\\n}",
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, "
        "%3}], [%4];",
        "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];",
        "cp.async.bulk.commit_group;", "cp.async.bulk.wait_group.read 0;", "fence.proxy.async.shared::cta;",
        "wgmma.fence.sync.aligned;", "wgmma.commit_group.sync.aligned;", "wgmma.wait_group.sync.aligned %0;",
        "{\\n.reg .pred p;\\nsetp.ne.b32 p, %6, 0;\\nwgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 "
        "{%0,%1,%2,%3}, %4, %5, p, 1, 1, 0, 0;\\n}",
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, 1, -1, 1, 1;",
        "setmaxnreg.dec.sync.aligned.u32 40;", "mov.u32 %0, %%cluster_ctarank;",
        "barrier.cluster.arrive.aligned;\\nbarrier.cluster.wait.aligned;"}) {
    CAPTURE(op);
    CHECK(translation_errors(std::string("asm volatile(\"") + op + "\" :: \"r\"(x));").empty());
  }
  // f16 accumulators, a shape off the grid of 8, and a wrong accumulator count are not.
  for (const char* op :
       {"wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {%0,%1}, %2, %3, 1, 1, 1, 0, 0;",
        "wgmma.mma_async.sync.aligned.m64n12k16.f32.bf16.bf16 {%0,%1,%2,%3,%4,%5}, %6, %7, 1, 1, "
        "1, 0, 0;",
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0,%1}, %2, %3, 1, 1, 1, 0, 0;"}) {
    CAPTURE(op);
    CHECK(translation_errors(std::string("asm volatile(\"") + op + "\" :: \"r\"(x));").size() == 1);
  }
  // The special-function unit's exp2 of one float, as --use_fast_math's exp2f compiles; not a packed one.
  CHECK(translation_errors("asm(\"ex2.approx.ftz.f32 %0, %1;\" : \"=f\"(y) : \"f\"(x));").empty());
  CHECK(translation_errors("asm(\"ex2.approx.ftz.f16x2 %0, %1;\" : \"=r\"(y) : \"r\"(x));").size() == 1);
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
