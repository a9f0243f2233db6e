// Fiber context switch for x86-64 System V: saves the callee-saved registers, MXCSR and the x87
// control word on the old stack, switches stacks, restores them from the new one (see fiber.cpp).
#if defined(__x86_64__)

        .text

// void sim_context_switch(void** save_sp /* rdi */, void* load_sp /* rsi */)
        .globl  sim_context_switch
        .type   sim_context_switch, @function
        .p2align 4
sim_context_switch:
        .cfi_startproc
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        subq    $8, %rsp
        stmxcsr (%rsp)
        fnstcw  4(%rsp)
        movq    %rsp, (%rdi)
        movq    %rsi, %rsp
        ldmxcsr (%rsp)
        fldcw   4(%rsp)
        addq    $8, %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        ret
        .cfi_endproc
        .size   sim_context_switch, .-sim_context_switch

// The first return into a fiber lands here: call entry (r13) with arg (r12). Entry never returns.
        .globl  sim_fiber_start
        .type   sim_fiber_start, @function
        .p2align 4
sim_fiber_start:
        .cfi_startproc
        .cfi_undefined rip
        movq    %r12, %rdi
        callq   *%r13
        ud2
        .cfi_endproc
        .size   sim_fiber_start, .-sim_fiber_start

#endif
        .section .note.GNU-stack, "", @progbits
