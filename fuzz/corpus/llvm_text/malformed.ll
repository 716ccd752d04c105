; Not valid LLVM IR: the instruction `frobnicate` does not exist.
define i32 @main() {
  %1 = frobnicate i32 1, 2
  ret i32 %1
}
