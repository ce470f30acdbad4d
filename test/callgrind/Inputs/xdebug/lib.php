<?php
// Included twice by main.php.
return strlen(str_repeat('ab', 3));
