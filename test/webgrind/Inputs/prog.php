<?php
function leaf($n) { $s = 0; for ($i = 0; $i < $n; $i++) { $s += $i; } return $s; }
function work($n) { $s = 0; for ($i = 0; $i < $n; $i++) { $s += leaf(50); } return $s; }
function fib($n) { return $n < 2 ? $n : fib($n - 1) + fib($n - 2); }
work(3);
leaf(10);
fib(5);
