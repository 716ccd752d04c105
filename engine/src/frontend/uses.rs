//! Whether a function's address escapes: any use other than as the callee of a direct call.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;

/// `true` if `func` is used other than as the called operand of a call, invoke or callbr:
/// passed as an argument, stored, compared, referenced by a global initializer (vtables,
/// `llvm.global_ctors`, `llvm.used`), an alias or a constant expression. Such a function
/// can be called from code the analysis does not see, so its verdict may not rely on its
/// direct callers alone.
pub(super) fn address_taken(func: LLVMValueRef) -> bool {
    // SAFETY: `func` is a live function; uses and users are live values of its module.
    unsafe {
        let mut u = LLVMGetFirstUse(func);
        while !u.is_null() {
            let user = LLVMGetUser(u);
            if !is_direct_callee_only(user, func) && !is_dead_constant(user, 0) {
                return true;
            }
            u = LLVMGetNextUse(u);
        }
    }
    false
}

/// Whether `value` is a constant expression or aggregate (not a global) that nothing live
/// uses: LLVM keeps such constants after their last user is deleted (e.g. the entries of
/// `llvm.global.annotations`, which the front end deletes after reading them).
///
/// # Safety
/// `value` must be a live value.
unsafe fn is_dead_constant(value: LLVMValueRef, depth: usize) -> bool {
    if depth > 16 || LLVMIsAConstant(value).is_null() || !LLVMIsAGlobalValue(value).is_null() {
        return false;
    }
    let mut u = LLVMGetFirstUse(value);
    while !u.is_null() {
        if !is_dead_constant(LLVMGetUser(u), depth + 1) {
            return false;
        }
        u = LLVMGetNextUse(u);
    }
    true
}

/// Whether `user` is a call-like instruction that calls `func` and does not also pass it
/// as an argument (or bundle operand).
///
/// # Safety
/// `user` and `func` must be live values of one module.
unsafe fn is_direct_callee_only(user: LLVMValueRef, func: LLVMValueRef) -> bool {
    let call_like = !LLVMIsACallInst(user).is_null() || !LLVMIsAInvokeInst(user).is_null() || !LLVMIsACallBrInst(user).is_null();
    if !call_like || LLVMGetCalledValue(user) != func {
        return false;
    }
    // Operands other than the callee (arguments, bundle operands, invoke/callbr successors
    // are basic blocks): the callee is the last operand of a call base.
    let n = LLVMGetNumOperands(user);
    (0..n.saturating_sub(1)).all(|i| LLVMGetOperand(user, i as u32) != func)
}

#[cfg(test)]
mod tests {
    use crate::driver::InputKind;

    #[test]
    fn direct_calls_do_not_take_an_address_everything_else_does() {
        let m = crate::frontend::load_source(
            "static int called(int x) { return x + 1; }\n\
             static int in_table(int x) { return x; }\n\
             static int passed(int x) { return x; }\n\
             static int self_arg(void *p) { return p != 0; }\n\
             int (*const table[1])(int) = { in_table };\n\
             int apply(int (*f)(int), int x) { return f(x); }\n\
             int main(void) { return called(1) + apply(passed, 2) + self_arg((void *)self_arg) + table[0](3); }\n",
            InputKind::C,
        )
        .expect("compiles");
        let taken = |name: &str| m.functions[m.function_by_name(name).expect("defined").0 as usize].address_taken;
        assert!(!taken("called"));
        assert!(taken("in_table"), "a global initializer refers to it");
        assert!(taken("passed"), "passed as an argument");
        assert!(taken("self_arg"), "passed to itself");
        assert!(!taken("apply") && !taken("main"));
    }
}
