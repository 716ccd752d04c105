/* Analysed from `count_down` (--entry): its parameter is an arbitrary int. */
int count_down(int n) {
    int steps = 0;
    while (n > 0) {
        n = n - 1;
        steps = steps + 1;
    }
    return steps;
}

int main(void) {
    return count_down(10);
}
