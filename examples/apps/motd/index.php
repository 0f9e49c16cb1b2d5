<?php
// A message-of-the-day app in PHP, with a flat-file store, that the project ships with no fault of
// its own: the non-Node example of docs/fault-proxy.md "Put your own app behind the fault proxy".
//   php -S 127.0.0.1:8653 index.php      (PHP's built-in server, this file as its router)
//   GET  /          the message and a form to change it; "Published." after ?published=1
//   POST /publish   message=…: the store (store.txt, one "name=value" line per field) rewritten whole, 303 to /?published=1
require __DIR__ . '/store.php';
if (!file_exists(store_file())) copy(__DIR__ . '/seed.txt', store_file());

$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$method = $_SERVER['REQUEST_METHOD'];

if ($method === 'POST' && $path === '/publish') {
    $store = read_store();
    $store['message'] = (string) ($_POST['message'] ?? '');
    write_store($store);
    header('Location: /?published=1', true, 303);
    exit;
}
if ($method === 'GET' && $path === '/') {
    $message = htmlspecialchars(read_store()['message'] ?? '', ENT_QUOTES);
    $notice = ($_GET['published'] ?? '') === '1' ? '<p id="notice" role="status">Published.</p>' : '';
    header('Content-Type: text/html; charset=utf-8');
    header('Cache-Control: no-store');
    echo <<<HTML
<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Message of the day</title></head>
<body><h1>Message of the day</h1>
{$notice}
<form method="post" action="/publish">
  <label for="message">Message</label> <input id="message" name="message" value="{$message}">
  <button id="publish" type="submit">Publish</button>
</form></body></html>
HTML;
    exit;
}
http_response_code(404);
header('Content-Type: text/plain');
echo "not found\n";
