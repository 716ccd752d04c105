/* Missing semicolon and an undeclared identifier: clang rejects this. */
int main(void) {
    int x = 1
    return y;
}
