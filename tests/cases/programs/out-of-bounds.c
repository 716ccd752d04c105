/* Off-by-one: the last iteration writes a[4], one past the end of the array. */
int main(void) {
    int a[4];
    for (int i = 0; i <= 4; i++) {
        a[i] = i;
    }
    return a[0];
}
