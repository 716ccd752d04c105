/* i climbs by 1 from 0 to 1000: the counter c and the sum s stay small
   (s <= 1000 * 999 / 2 < INT_MAX). */
int main(void) {
  int s = 0, c = 0;
  for (int i = 0; i < 1000; i++) {
    s += i;
    c++;
  }
  return s + c;
}
