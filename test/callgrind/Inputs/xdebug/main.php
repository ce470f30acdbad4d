<?php
// The PHP script of test/callgrind/xdebug-live.test. Xdebug's profiler
// writes one block per call, so each function below appears as many times
// as it is called:
//   fib(6)            25 calls (1 from {main}, 24 recursive)
//   is_even/is_odd    mutual recursion: is_even(5) .. is_odd(0), 6 calls
//   lib.php           included twice (include::), defines twice_of()
//   $square           a closure, called 3 times
//   Counter->bump     a method, called 4 times
function fib($n) { return $n < 2 ? $n : fib($n - 1) + fib($n - 2); }

function is_even($n) { return $n == 0 ? true : is_odd($n - 1); }
function is_odd($n) { return $n == 0 ? false : is_even($n - 1); }

class Counter {
  public $n = 0;
  public function bump() { $this->n++; }
}

$total = fib(6) + (is_even(5) ? 1 : 0);
for ($i = 0; $i < 2; $i++)
  $total += include __DIR__ . '/lib.php';
$square = function ($x) { return $x * $x; };
foreach ([1, 2, 3] as $x)
  $total += $square($x);
$c = new Counter();
for ($i = 0; $i < 4; $i++)
  $c->bump();
echo $total + $c->n, "\n";
