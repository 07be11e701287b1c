#!/usr/bin/env python3
"""Opens one of cudalab's HTML reports in headless Chromium and checks what a reader gets.

Chromium is driven through its DevTools protocol on a pipe (--remote-debugging-pipe: no driver, no
port, no network), so this needs nothing beyond Python's standard library. The page is opened from
its file, as someone opening a copied folder would, and must:
  - fetch nothing but itself (no other file, no network address) and log nothing to the console
    (no error, no warning, no uncaught exception);
  - hold the tables and plots asked for (--table ID=ROWS: the table with that id has ROWS rows;
    --tables N: at least N tables; --plots N: at least N figures holding a drawn SVG);
  - show the texts asked for as text (--text), with none of their markup run: no <img>, <iframe>,
    <object> or <embed> in the page, one <script> (its own), and window.pwned never set (the
    hostile names the tests use set it if they ever run);
  - sort (--sort ID: pressing a numeric column's header orders the rows by it, again the other way)
    and filter (--filter ID: choosing a variant shows only its rows);
  - read the same with JavaScript off: every row there, no control the script adds;
  - draw something at 1280 and at 390 px wide, light and dark (each screenshot has more than a
    background), without the page scrolling sideways at 390 (wide tables scroll in their own box).
--shots DIR keeps the screenshots. Exit 0 when all holds, 1 with each failure said, 77 without Chromium.
"""
import argparse
import base64
import fcntl
import json
import os
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib


class Failure(Exception):
    pass


class Browser:
    """Headless Chromium on a DevTools pipe: calls wait for their answer, events are kept."""

    def __init__(self, chromium, profile):
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def on_fds_3_and_4():  # the pipe's ends where Chromium looks for them
            a = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        args = [chromium, '--headless', '--remote-debugging-pipe', '--disable-gpu', '--no-first-run',
                '--no-default-browser-check', '--disable-extensions', '--disable-background-networking',
                '--disable-sync', '--disable-component-update', '--hide-scrollbars', '--mute-audio',
                '--user-data-dir=' + profile, 'about:blank']
        if os.geteuid() == 0:
            args.insert(1, '--no-sandbox')  # Chromium refuses to run as root with its sandbox
        self.log = open(os.path.join(profile, 'chromium.log'), 'wb')
        self.proc = subprocess.Popen(args, pass_fds=(3, 4), preexec_fn=on_fds_3_and_4, stdin=subprocess.DEVNULL,
                                     stdout=self.log, stderr=self.log)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.next_id = 0
        self.buffer = b''
        self.events = []

    def close(self):
        try:
            self.call('Browser.close', timeout=10)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)
        self.log.close()

    def _read_message(self, deadline):
        while b'\0' not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure('Chromium did not answer in time')
            ready, _, _ = select.select([self.from_browser], [], [], left)
            if ready:
                chunk = os.read(self.from_browser, 1 << 20)
                if not chunk:
                    raise Failure('Chromium closed its DevTools pipe (see chromium.log)')
                self.buffer += chunk
        message, self.buffer = self.buffer.split(b'\0', 1)
        return json.loads(message)

    def call(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        message = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session:
            message['sessionId'] = session
        os.write(self.to_browser, json.dumps(message).encode() + b'\0')
        deadline = time.monotonic() + timeout
        while True:
            answer = self._read_message(deadline)
            if answer.get('id') == self.next_id:
                if 'error' in answer:
                    raise Failure('%s: %s' % (method, answer['error'].get('message')))
                return answer.get('result', {})
            self.events.append(answer)

    def wait_event(self, method, timeout=60):
        deadline = time.monotonic() + timeout
        while True:
            for i, e in enumerate(self.events):
                if e.get('method') == method:
                    del self.events[i]
                    return e
            self.events.append(self._read_message(deadline))


def png_pixels(data):
    """The (width, height, rows of bytes, bytes a pixel) of an 8-bit RGB or RGBA PNG, as Chromium writes them."""
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise Failure('the screenshot is not a PNG')
    at, idat, width = 8, b'', 0
    while at < len(data):
        length, kind = struct.unpack('>I4s', data[at:at + 8])
        chunk = data[at + 8:at + 8 + length]
        if kind == b'IHDR':
            width, height, depth, colour = struct.unpack('>IIBB', chunk[:10])
            if depth != 8 or colour not in (2, 6):
                raise Failure('unexpected PNG layout (depth %d, colour type %d)' % (depth, colour))
            bpp = 3 if colour == 2 else 4
        elif kind == b'IDAT':
            idat += chunk
        at += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - bpp] if x >= bpp else 0
            up = previous[x]
            corner = previous[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, rows, bpp


def not_blank(data):
    """Why the screenshot is blank, or '' when it shows something: more than a background colour."""
    width, height, rows, bpp = png_pixels(data)
    counts = {}
    for row in rows[::2]:
        for x in range(0, width * bpp, bpp * 2):
            pixel = row[x:x + 3]
            counts[pixel] = counts.get(pixel, 0) + 1
    total = sum(counts.values())
    background = max(counts.values())
    if len(counts) < 8 or total - background < total * 0.005:
        return '%d colours, %.2f%% of it not background' % (len(counts), 100.0 * (total - background) / total)
    return ''


SORT_CHECK = r'''(function(id){
  var t = document.getElementById(id); if (!t) return 'no table ' + id;
  var heads = t.tHead.rows[0].cells, column = -1;
  for (var i = 0; i < heads.length && column < 0; i++) {
    if (!heads[i].classList.contains('num')) continue;
    var seen = {};
    Array.prototype.forEach.call(t.tBodies, function(g){ var c = g.rows[0].cells[i]; seen[c.getAttribute('data-sort')] = 1; });
    if (Object.keys(seen).length > 2) column = i;
  }
  if (column < 0) return 'no numeric column with values to sort by in ' + id;
  var button = heads[column].querySelector('button'); if (!button) return 'its header has no button to sort with';
  function keys(){ return Array.prototype.map.call(t.tBodies, function(g){ var s = g.rows[0].cells[column].getAttribute('data-sort'); return s === null || s === '' ? NaN : parseFloat(s); }); }
  function ordered(k, up){ var numbers = k.filter(function(x){ return !isNaN(x); });
    for (var j = 1; j < numbers.length; j++) if (up ? numbers[j] < numbers[j-1] : numbers[j] > numbers[j-1]) return false;
    var firstNaN = k.findIndex(function(x){ return isNaN(x); });
    return firstNaN < 0 || k.slice(firstNaN).every(function(x){ return isNaN(x); }); }
  button.click(); if (!ordered(keys(), true)) return 'not ascending after one press: ' + keys().join(',');
  button.click(); if (!ordered(keys(), false)) return 'not descending after two: ' + keys().join(',');
  return '';
})(%s)'''

FILTER_CHECK = r'''(function(id){
  var t = document.getElementById(id); if (!t) return 'no table ' + id;
  var label = t.parentNode.previousElementSibling;
  var select = label && label.querySelector('select'); if (!select) return 'no variant filter above ' + id;
  if (select.options.length < 3) return 'the filter offers ' + select.options.length + ' choices';
  var choice = select.options[2].value;
  select.value = choice; select.dispatchEvent(new Event('change'));
  var shown = Array.prototype.filter.call(t.tBodies, function(g){ return !g.hidden; });
  if (!shown.length) return 'choosing ' + choice + ' shows no row';
  if (shown.length === t.tBodies.length) return 'choosing ' + choice + ' hides no row';
  var other = shown.filter(function(g){ return g.getAttribute('data-variant') !== choice; });
  if (other.length) return 'choosing ' + choice + ' still shows ' + other[0].getAttribute('data-variant');
  select.value = ''; select.dispatchEvent(new Event('change'));
  return Array.prototype.some.call(t.tBodies, function(g){ return g.hidden; }) ? 'all does not show every row again' : '';
})(%s)'''


# The innermost elements that reach past the right edge, to say what makes a page scroll sideways.
WIDE_ELEMENTS = r'''(function(width){
  var out = [];
  Array.prototype.forEach.call(document.body.querySelectorAll('*'), function(e){
    if (e.getBoundingClientRect().right <= width + 1 || out.length >= 3) return;
    var inner = Array.prototype.some.call(e.children, function(c){ return c.getBoundingClientRect().right > width + 1; });
    if (!inner) out.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && e.className.baseVal === undefined ? '.' + e.className : ''));
  });
  return out.join(', ');
})(%d)'''


def check(args):
    failures = []
    url = 'file://' + os.path.abspath(args.page)
    profile = tempfile.mkdtemp(prefix='cudalab-html-')
    browser = Browser(args.chromium, profile)
    try:
        target = browser.call('Target.createTarget', {'url': 'about:blank'})['targetId']
        session = browser.call('Target.attachToTarget', {'targetId': target, 'flatten': True})['sessionId']
        for domain in ('Page', 'Runtime', 'Log', 'Network', 'DOM'):
            browser.call(domain + '.enable', {}, session)

        def load(width, script=True, scheme='light'):
            browser.call('Emulation.setScriptExecutionDisabled', {'value': not script}, session)
            browser.call('Emulation.setDeviceMetricsOverride',
                         {'width': width, 'height': 900, 'deviceScaleFactor': 1, 'mobile': width < 600}, session)
            browser.call('Emulation.setEmulatedMedia',
                         {'features': [{'name': 'prefers-color-scheme', 'value': scheme}]}, session)
            browser.call('Page.navigate', {'url': url}, session)
            browser.wait_event('Page.loadEventFired')

        def js(expression):
            answer = browser.call('Runtime.evaluate', {'expression': expression, 'returnByValue': True}, session)
            if 'exceptionDetails' in answer:
                raise Failure('evaluating %s: %s' % (expression[:60], answer['exceptionDetails'].get('text')))
            return answer['result'].get('value')

        def count(selector):  # through the DOM, which answers with JavaScript off too
            root = browser.call('DOM.getDocument', {'depth': 0}, session)['root']['nodeId']
            return len(browser.call('DOM.querySelectorAll', {'nodeId': root, 'selector': selector}, session)['nodeIds'])

        load(1280)
        for spec in args.table:
            table, rows = spec.rsplit('=', 1)
            got = js('(function(t){return t ? t.tBodies.length : -1;})(document.getElementById(%s))' % json.dumps(table))
            if got < 0:
                failures.append('no table %s' % table)
            elif got != int(rows):
                failures.append('table %s: %d rows, not %s' % (table, got, rows))
        tables = count('table')
        if tables < args.tables:
            failures.append('%d tables, not at least %d' % (tables, args.tables))
        drawn = js("Array.prototype.filter.call(document.querySelectorAll('figure.plot svg'), function(s){"
                   "return s.getBoundingClientRect().width > 100 && "
                   "s.querySelectorAll('line,polyline,rect,circle,polygon,path').length > 10;}).length")
        if drawn < args.plots:
            failures.append('%d drawn plots, not at least %d' % (drawn, args.plots))
        text = js('document.body.innerText')
        for wanted in args.text:
            if wanted not in text:
                failures.append('the page does not show the text %r' % wanted)
        if js('window.pwned !== undefined'):
            failures.append('markup from the results ran: window.pwned = %r' % js('window.pwned'))
        injected = count('img, iframe, object, embed, video, audio, link[rel=stylesheet], link[rel=import]')
        if injected:
            failures.append('%d elements that load or embed something' % injected)
        scripts = count('script')
        if scripts != 1:
            failures.append('%d <script> elements, not its own one' % scripts)
        for table in args.sort:
            why = js(SORT_CHECK % json.dumps(table))
            if why:
                failures.append('sorting %s: %s' % (table, why))
        for table in args.filter:
            why = js(FILTER_CHECK % json.dumps(table))
            if why:
                failures.append('filtering %s: %s' % (table, why))

        # With JavaScript off: the same rows, none hidden, no control of the script's.
        load(1280, script=False)
        rows_on = sum(int(spec.rsplit('=', 1)[1]) for spec in args.table)
        rows_off = sum(count('#%s > tbody' % spec.rsplit('=', 1)[0]) for spec in args.table)
        if rows_off != rows_on:
            failures.append('with JavaScript off the tables have %d rows, not %d' % (rows_off, rows_on))
        if count('tbody[hidden], label.filter, th button'):
            failures.append('with JavaScript off, the script still changed the page')

        for width, scheme in ((1280, 'light'), (390, 'light'), (1280, 'dark'), (390, 'dark')):
            load(width, scheme=scheme)
            shot = base64.b64decode(browser.call('Page.captureScreenshot', {'format': 'png'}, session)['data'])
            if args.shots:
                os.makedirs(args.shots, exist_ok=True)
                with open(os.path.join(args.shots, '%s-%d-%s.png' % (os.path.basename(args.page), width, scheme)),
                          'wb') as f:
                    f.write(shot)
            why = not_blank(shot)
            if why:
                failures.append('the screenshot at %d px (%s) is blank: %s' % (width, scheme, why))
            wide = js('document.documentElement.scrollWidth')
            if wide > width + 1:
                culprits = js(WIDE_ELEMENTS % width)
                failures.append('at %d px (%s) the page is %d px wide: it scrolls sideways (%s)' %
                                (width, scheme, wide, culprits))
            if scheme == 'dark' and js('getComputedStyle(document.body).backgroundColor') == 'rgb(255, 255, 255)':
                failures.append('the dark colour scheme leaves the page white')

        for e in browser.events:
            method, params = e.get('method'), e.get('params', {})
            if method == 'Runtime.consoleAPICalled':
                words = ' '.join(str(a.get('value', a.get('description', ''))) for a in params.get('args', []))
                failures.append('console.%s: %s' % (params.get('type'), words))
            elif method == 'Runtime.exceptionThrown':
                details = params.get('exceptionDetails', {})
                failures.append('uncaught: %s' % details.get('exception', {}).get('description', details.get('text')))
            elif method == 'Log.entryAdded' and params.get('entry', {}).get('level') == 'error':
                failures.append('console error: %s' % params['entry'].get('text'))
            elif method == 'Network.requestWillBeSent':
                asked = params.get('request', {}).get('url', '')
                if asked != url and not asked.startswith('data:'):
                    failures.append('the page fetched %s' % asked)
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('chromium')
    parser.add_argument('page')
    parser.add_argument('--table', action='append', default=[], metavar='ID=ROWS')
    parser.add_argument('--tables', type=int, default=1)
    parser.add_argument('--plots', type=int, default=0)
    parser.add_argument('--text', action='append', default=[])
    parser.add_argument('--sort', action='append', default=[], metavar='ID')
    parser.add_argument('--filter', action='append', default=[], metavar='ID')
    parser.add_argument('--shots', metavar='DIR')
    args = parser.parse_args()
    if not shutil.which(args.chromium):
        print('check_page: no Chromium (%s): skipped' % args.chromium)
        return 77
    if not os.path.isfile(args.page):
        print('check_page: %s: no such page' % args.page)
        return 1
    try:
        failures = check(args)
    except Failure as e:
        failures = [str(e)]
    failures = list(dict.fromkeys(failures))  # each page load says it again: once is enough
    for f in failures:
        print('FAIL %s: %s' % (args.page, f))
    if not failures:
        print('ok %s' % args.page)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
