int three(int X) { return X * 3; }
