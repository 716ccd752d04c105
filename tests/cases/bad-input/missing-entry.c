/* A valid program analysed with --entry naming a function it does not define. */
int main(void) {
    return 0;
}
