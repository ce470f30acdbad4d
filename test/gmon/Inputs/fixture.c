int leaf(int x) { return x * 3 + 1; }
int middle(int x) { return leaf(x) + leaf(x + 1); }
int top(int x) { return middle(x) - 1; }
