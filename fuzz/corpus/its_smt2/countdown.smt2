(declare-sort Loc 0)
(declare-const start Loc)
(declare-const loop Loc)
(declare-const __init Loc)
(assert (distinct start loop __init))

(define-fun cfg_init ( (pc Loc) (src Loc) (rel Bool) ) Bool
  (and (= pc src) rel))

(define-fun cfg_trans2 ( (pc Loc) (src Loc)
                         (pc1 Loc) (dst Loc)
                         (rel Bool) ) Bool
  (and (= pc src) (= pc1 dst) rel))

(define-fun init_main ( (pc Loc) (x Int) (y Int) ) Bool
  (cfg_init pc __init true))

; x counts down to 0; y is arbitrary and unchanged.
(define-fun next_main (
                 (pc Loc) (x Int) (y Int)
                 (pc1 Loc) (xP Int) (yP Int)
             ) Bool
  (or
    (cfg_trans2 pc __init pc1 start true)
    (cfg_trans2 pc start pc1 loop (and (= xP x) (= yP y)))
    (cfg_trans2 pc loop pc1 loop (and (> x 0) (= xP (- x 1)) (= yP y)))
  )
)
