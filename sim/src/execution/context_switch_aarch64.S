// Fiber context switch for AArch64 (AAPCS64): saves x19-x30, d8-d15 and FPCR on the old stack,
// switches stacks, restores them from the new one (see fiber.cpp).
#if defined(__aarch64__)

        .text

// void sim_context_switch(void** save_sp /* x0 */, void* load_sp /* x1 */)
        .globl  sim_context_switch
        .type   sim_context_switch, %function
        .p2align 4
sim_context_switch:
        .cfi_startproc
        sub     sp, sp, #176
        stp     x19, x20, [sp, #0]
        stp     x21, x22, [sp, #16]
        stp     x23, x24, [sp, #32]
        stp     x25, x26, [sp, #48]
        stp     x27, x28, [sp, #64]
        stp     x29, x30, [sp, #80]
        stp     d8, d9, [sp, #96]
        stp     d10, d11, [sp, #112]
        stp     d12, d13, [sp, #128]
        stp     d14, d15, [sp, #144]
        mrs     x9, fpcr
        str     x9, [sp, #160]
        mov     x9, sp
        str     x9, [x0]
        mov     sp, x1
        ldp     x19, x20, [sp, #0]
        ldp     x21, x22, [sp, #16]
        ldp     x23, x24, [sp, #32]
        ldp     x25, x26, [sp, #48]
        ldp     x27, x28, [sp, #64]
        ldp     x29, x30, [sp, #80]
        ldp     d8, d9, [sp, #96]
        ldp     d10, d11, [sp, #112]
        ldp     d12, d13, [sp, #128]
        ldp     d14, d15, [sp, #144]
        ldr     x9, [sp, #160]
        msr     fpcr, x9
        add     sp, sp, #176
        ret
        .cfi_endproc
        .size   sim_context_switch, .-sim_context_switch

// The first return into a fiber lands here: call entry (x20) with arg (x19). Entry never returns.
        .globl  sim_fiber_start
        .type   sim_fiber_start, %function
        .p2align 4
sim_fiber_start:
        .cfi_startproc
        .cfi_undefined x30
        mov     x0, x19
        blr     x20
        brk     #0
        .cfi_endproc
        .size   sim_fiber_start, .-sim_fiber_start

#endif
        .section .note.GNU-stack, "", %progbits
