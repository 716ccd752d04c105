; Countdown loop in LLVM IR (clang-22 -O1 output of a small C loop, attributes and metadata removed):
; i decreases from a nondeterministic start to 0 while s cycles in 0..100.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define i32 @main() {
  %1 = tail call i32 @__VERIFIER_nondet_int()
  %2 = icmp sgt i32 %1, 0
  br i1 %2, label %3, label %11

3:
  %4 = phi i32 [ %9, %3 ], [ 0, %0 ]
  %5 = phi i32 [ %6, %3 ], [ %1, %0 ]
  %6 = add nsw i32 %5, -1
  %7 = add nsw i32 %4, 2
  %8 = icmp sgt i32 %4, 98
  %9 = select i1 %8, i32 0, i32 %7
  %10 = icmp sgt i32 %5, 1
  br i1 %10, label %3, label %11

11:
  %12 = phi i32 [ 0, %0 ], [ %9, %3 ]
  ret i32 %12
}

declare i32 @__VERIFIER_nondet_int()
