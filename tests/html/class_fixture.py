#!/usr/bin/env python3
"""A class of the reduction-sum assignment already graded, for the class page's test without a GPU.

Writes SUBMISSIONS/<student>.cu (the reference solution, each with a comment of its own) and, for
each, GRADES/<student>/grade.json: a complete grade report of that assignment and that submission, so
that `cudalab grade --submissions SUBMISSIONS --out GRADES` keeps it (a batch resumes) and only
writes the class's pages. The reports are what an H100 would have given a class: correctness passed
or partly, performance between 20 and 105 % of the baseline with intervals, a student held for review
by the roofline check, a census warning, and text with markup in it (a flag's message, a pseudonym)
that the page must show as text.
usage: class_fixture.py ASSIGNMENT SOLUTION SUBMISSIONS GRADES
"""
import hashlib
import hmac
import json
import os
import sys

assignment, solution, submissions, grades, secret_file, version, lab = sys.argv[1:8]
# The staff's signature, as cudalab's report_signature writes it: the batch keeps only signed reports.
with open(secret_file) as f:
    secret = bytes.fromhex(f.read().strip())
signing_key = hmac.new(secret, b'cudalab grade.json signing key 1', hashlib.sha256).digest()
fingerprint = hmac.new(secret, b'cudalab secret fingerprint 1', hashlib.sha256).hexdigest()[:16]
with open(assignment, 'rb') as f:
    assignment_text = f.read()
with open(lab, 'rb') as f:
    lab_text = f.read()
inputs_digest = hashlib.sha256(('assignment %s\nlab %s\ncudalab %s\n' % (
    hashlib.sha256(assignment_text).hexdigest(), hashlib.sha256(lab_text).hexdigest(), version)).encode()).hexdigest()
os.makedirs(submissions, exist_ok=True)
with open(assignment, 'rb') as f:
    assignment_digest = hashlib.sha256(f.read()).hexdigest()
with open(solution, 'rb') as f:
    reference = f.read()

HOSTILE = '<img src=x onerror="window.pwned=1">'
# student, pseudonym, correct points of odd-sizes / large / hidden-sizes, bandwidth median, its interval
CLASS = [
    ('ada', 'brisk-otter-3f', (30, 10, 10), 104.2, (103.1, 105.0)),
    ('bob', 'calm-heron-0a', (30, 10, 10), 74.1, (73.0, 75.2)),
    ('cyd', 'dry-lynx-11', (30, 10, 10), 72.8, (70.9, 74.0)),
    ('dee', 'eager-wren-9c', (30, 10, 6), 61.0, (58.2, 63.5)),
    ('eli', 'fair-moth-42', (30, 10, 10), 55.5, (54.9, 56.0)),
    ('fay', 'glad-newt-7e', (24, 10, 10), None, None),
    ('gus', 'hazy-crab-5d', (30, 0, 10), None, None),
    ('hal', 'icy-puma-b2', (30, 10, 10), 40.3, (38.8, 41.9)),
    ('ivy', 'jolly-yak-c4', (30, 10, 10), 33.3, (31.0, 35.7)),
    ('jon', 'keen-ibis-d0', (30, 10, 10), 21.9, (21.5, 22.4)),
    ('kim', '<b onmouseover="window.pwned=2">bold-fox</b>', (30, 10, 10), 88.0, (86.9, 89.1)),
]


def id_hmac(student):
    # pseudonyms.hpp's student_id_hmac: HMAC(secret, seed_message("reduction-sum", student, "student id", 0)).
    def framed(text):
        return len(text).to_bytes(8, 'big') + text
    message = framed(b'reduction-sum') + framed(student.encode()) + framed(b'student id') + (0).to_bytes(8, 'big')
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


def test(name, kind, points, max_points, status, message, visibility='visible', metric=None, parameters=''):
    return {'id': name, 'name': name, 'kind': kind, 'visibility': visibility, 'points': points,
            'max_points': max_points, 'status': status, 'metric': metric, 'message': message, 'feedback_md': '',
            'parameters': parameters}


for i, (student, pseudonym, correct, median, ci) in enumerate(CLASS):
    text = reference + ('\n// %s\n' % student).encode()
    path = os.path.join(submissions, student + '.cu')
    with open(path, 'wb') as f:
        f.write(text)
    odd, large, hidden = correct
    tests = [
        test('odd-sizes', 'correctness', odd, 30, 'passed' if odd == 30 else 'failed', '%d of 9 points verified' % (odd * 9 // 30),
             parameters="n = [1, 2, 31, 33]"),
        test('large', 'correctness', large, 10, 'passed' if large == 10 else 'failed', '%d of 1 points verified' % (large // 10)),
        test('hidden-sizes', 'correctness', hidden, 10, 'passed' if hidden == 10 else 'failed',
             '%d of 5 points verified' % (hidden // 2), visibility='hidden'),
    ]
    flags = []
    if median is None:
        tests.append(test('bandwidth', 'performance', 0, 40, 'skipped', "it requires 'odd-sizes' and 'large' to pass first"))
    else:
        points = max(0.0, min(40.0, 40 * (median - 30) / 40))
        status = 'passed' if points > 0 else 'failed'
        if student == 'ada':  # above the roofline: held
            status, points = 'held', 0
            flags.append({'check': 'roofline', 'severity': 'blocking',
                          'message': '3150 GB/s is above 1.05 x the measured ceiling (3004 GB/s) ' + HOSTILE})
        tests.append(test('bandwidth', 'performance', round(points, 2), 40, status,
                          '%.1f %% of the baseline' % median,
                          metric={'name': 'pct_of_baseline', 'median': median, 'ci': list(ci), 'rounds': 3,
                                  'points_between': [30, 70]}))
    if student == 'dee':
        flags.append({'check': 'census', 'severity': 'warning', 'message': 'a kernel on a stream of its own'})
    tests.append(test('memcheck', 'sanitizer', 5, 5, 'passed', 'no errors'))
    tests.append(test('racecheck', 'sanitizer', 5 if student != 'gus' else 0, 5,
                      'passed' if student != 'gus' else 'failed', 'no hazards' if student != 'gus' else '1 hazard'))
    score = sum(t['points'] for t in tests)
    report = {
        'schema_version': 3, 'command': 'grade', 'complete': True, 'cudalab_version': '0.1.0',
        'graded_at': '2026-11-26T%02d:00:00Z' % (8 + i % 10), 'seconds': 120.0 + i,
        'assignment': {'id': 'reduction-sum', 'title': 'Reduction: sum n floats at the bandwidth roof',
                       'points': 100, 'digest': assignment_digest},
        'student': {'id_hmac': id_hmac(student), 'pseudonym': pseudonym},
        'submission': {'sha256': hashlib.sha256(text).hexdigest(), 'files': ['reduce_sum.cu'],
                       'build': {'ok': True, 'command': 'nvcc for sm_90 -O3 -lineinfo', 'diagnostics': [], 'seconds': 3.1}},
        'device': None, 'ceilings': None, 'tests': tests, 'flags': flags, 'score': score, 'max_score': 100,
        'leaderboard': [] if median is None else [{'name': '% of baseline', 'test': 'bandwidth', 'value': median,
                                                    'order': 'desc', 'ci': list(ci)}],
        'staff': {'seed_digests': [], 'input_digests': []},
        'secret_fingerprint': fingerprint, 'inputs_digest': inputs_digest, 'signature': '',
    }
    compact = json.dumps(report, separators=(',', ':'), ensure_ascii=False)
    report['signature'] = hmac.new(signing_key, (student + '\n' + compact).encode(), hashlib.sha256).hexdigest()
    os.makedirs(os.path.join(grades, student), exist_ok=True)
    with open(os.path.join(grades, student, 'grade.json'), 'w') as f:
        json.dump(report, f, indent=2)
print(len(CLASS))
