/* SPDX-License-Identifier: Apache-2.0 */
/* forward_lazy.S: the first call of a forwarded routine. Each routine's slot starts at a thunk
   that loads the slot's address into %r11 and jumps here; this saves every register that can
   carry an argument (System V x86-64: rdi, rsi, rdx, rcx, r8, r9, xmm0-7, and al for varargs
   such as cblas_xerbla), asks teamla_forward_resolve(slot) for the routine (forward.cpp:
   every slot is resolved once; a routine no backend has stops the program there, by name),
   restores them and jumps to it. Stack arguments are untouched: the frame is gone before
   the jump, and the caller's return address is on top again. */
        .text
        .globl teamla_forward_lazy
        .hidden teamla_forward_lazy
        .type teamla_forward_lazy, @function
teamla_forward_lazy:
        .cfi_startproc
        pushq %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq %rsp, %rbp
        .cfi_def_cfa_register %rbp
        /* Entered by a jump from a call: %rsp + 8 was 16-aligned, so after the push it is
           aligned, and 192 keeps it so for the call below. */
        subq $192, %rsp
        movq %rdi, 0(%rsp)
        movq %rsi, 8(%rsp)
        movq %rdx, 16(%rsp)
        movq %rcx, 24(%rsp)
        movq %r8, 32(%rsp)
        movq %r9, 40(%rsp)
        movq %r11, 48(%rsp)
        movq %rax, 56(%rsp)
        movdqu %xmm0, 64(%rsp)
        movdqu %xmm1, 80(%rsp)
        movdqu %xmm2, 96(%rsp)
        movdqu %xmm3, 112(%rsp)
        movdqu %xmm4, 128(%rsp)
        movdqu %xmm5, 144(%rsp)
        movdqu %xmm6, 160(%rsp)
        movdqu %xmm7, 176(%rsp)
        movq %r11, %rdi
        call teamla_forward_resolve
        movq %rax, %r11
        movq 0(%rsp), %rdi
        movq 8(%rsp), %rsi
        movq 16(%rsp), %rdx
        movq 24(%rsp), %rcx
        movq 32(%rsp), %r8
        movq 40(%rsp), %r9
        movq 56(%rsp), %rax
        movdqu 64(%rsp), %xmm0
        movdqu 80(%rsp), %xmm1
        movdqu 96(%rsp), %xmm2
        movdqu 112(%rsp), %xmm3
        movdqu 128(%rsp), %xmm4
        movdqu 144(%rsp), %xmm5
        movdqu 160(%rsp), %xmm6
        movdqu 176(%rsp), %xmm7
        leave
        .cfi_def_cfa %rsp, 8
        jmp *%r11
        .cfi_endproc
        .size teamla_forward_lazy, .-teamla_forward_lazy

        .section .note.GNU-stack,"",@progbits
