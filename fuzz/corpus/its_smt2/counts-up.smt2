(declare-sort Loc 0)
(declare-const loop Loc)
(declare-const __init Loc)
(assert (distinct loop __init))

(define-fun cfg_init ( (pc Loc) (src Loc) (rel Bool) ) Bool
  (and (= pc src) rel))

(define-fun cfg_trans2 ( (pc Loc) (src Loc)
                         (pc1 Loc) (dst Loc)
                         (rel Bool) ) Bool
  (and (= pc src) (= pc1 dst) rel))

(define-fun init_main ( (pc Loc) (x Int) ) Bool
  (cfg_init pc __init true))

; Runs forever from every x > 0.
(define-fun next_main (
                 (pc Loc) (x Int)
                 (pc1 Loc) (xP Int)
             ) Bool
  (or
    (cfg_trans2 pc __init pc1 loop true)
    (cfg_trans2 pc loop pc1 loop (and (> x 0) (= xP (+ x 1))))
  )
)
