<?php
// The postcondition command of app.json: prints the stored value of one field (`php read.php message`),
// read from the store itself, never from the app's pages; nothing when the field is absent.
require __DIR__ . '/store.php';
$value = read_store()[$argv[1] ?? ''] ?? null;
if ($value !== null) echo $value, "\n";
