/* Adds a signed step to s until s reaches 1000, with no check of the step.
   A positive step ends the loop without overflow (s < 1000 before each
   addition: for step >= 1000 the first sum is step itself, otherwise the sums
   stay below 2000). A negative step decreases s until s + step leaves the int
   range: signed overflow, undefined behaviour. step = 0 keeps s = 0 < 1000
   forever with no overflow: a non-terminating run free of undefined
   behaviour, so the answer is NO (memory safety is violated too, by the
   negative steps).
   Witness: step = 0.
   witness-input: 0 */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int step = __VERIFIER_nondet_int();
  int s = 0;
  while (s < 1000) s += step;
  return s & 1;
}
