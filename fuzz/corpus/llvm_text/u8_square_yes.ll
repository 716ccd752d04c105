; ModuleID = '../benchmarks/bitvector-heldout/u8_square_yes.c'
source_filename = "../benchmarks/bitvector-heldout/u8_square_yes.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @main() #0 {
  %1 = alloca i32, align 4
  %2 = alloca i8, align 1
  store i32 0, ptr %1, align 4
  %3 = call zeroext i8 @__VERIFIER_nondet_uchar()
  store i8 %3, ptr %2, align 1
  br label %4

4:                                                ; preds = %8, %0
  %5 = load i8, ptr %2, align 1
  %6 = zext i8 %5 to i32
  %7 = icmp sgt i32 %6, 1
  br i1 %7, label %8, label %15

8:                                                ; preds = %4
  %9 = load i8, ptr %2, align 1
  %10 = zext i8 %9 to i32
  %11 = load i8, ptr %2, align 1
  %12 = zext i8 %11 to i32
  %13 = mul nsw i32 %10, %12
  %14 = trunc i32 %13 to i8
  store i8 %14, ptr %2, align 1
  br label %4, !llvm.loop !6

15:                                               ; preds = %4
  %16 = load i8, ptr %2, align 1
  %17 = zext i8 %16 to i32
  ret i32 %17
}

declare zeroext i8 @__VERIFIER_nondet_uchar() #1

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.module.flags = !{!0, !1, !2, !3, !4}
!llvm.ident = !{!5}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{i32 7, !"frame-pointer", i32 2}
!5 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!6 = distinct !{!6, !7}
!7 = !{!"llvm.loop.mustprogress"}
