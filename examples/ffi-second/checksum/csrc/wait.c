/* A busy wait that never ends once started with a nonzero flag. */

#include "termcheck.h"

/* Does not terminate when flag != 0; accepted by its annotation (an allow entry written in the
   source: the NO is reported, allowed, and callers count as proved only assuming it). */
TERMCHECK_ALLOW("non-termination", "the example's deliberate busy wait")
void c_wait(int flag) {
    while (flag != 0) {
    }
}
