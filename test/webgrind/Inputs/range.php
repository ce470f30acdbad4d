<?php
// webgrind/xdebug.test: range() is called first at line 7, inside late(),
// which is defined below its call, then at line 6. Webgrind lists an
// internal function at the line of its first call.
late(3);
$r = range(1, 4);
function late($n) { return range(1, $n); }
