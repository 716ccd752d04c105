(declare-sort Loc 0)
(define-fun next_main ( (pc Loc) (x Int)
