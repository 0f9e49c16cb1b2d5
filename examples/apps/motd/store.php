<?php
// The store: store.txt (MOTD_STORE), one "name=value" line per field, written whole through a
// rename so that a reader never sees half of it.
function store_file(): string {
    return getenv('MOTD_STORE') ?: __DIR__ . '/store.txt';
}
function read_store(): array {
    $fields = [];
    foreach (@file(store_file(), FILE_IGNORE_NEW_LINES) ?: [] as $line) {
        [$name, $value] = array_pad(explode('=', $line, 2), 2, '');
        $fields[$name] = $value;
    }
    return $fields;
}
function write_store(array $fields): void {
    $text = '';
    foreach ($fields as $name => $value) $text .= $name . '=' . str_replace(["\r", "\n"], ' ', $value) . "\n";
    file_put_contents(store_file() . '.tmp', $text);
    rename(store_file() . '.tmp', store_file());
}
