/* A busy wait that never ends once started with a nonzero flag. */

/* Does not terminate when flag != 0. */
void c_wait(int flag) {
    while (flag != 0) {
    }
}
