"""random-callgrind.py SEED: prints a callgrind file made at random from SEED,
for reading in pieces against reading in one: parts, objects, source files
and inlined files, functions in several blocks that start with a self cost
line, a call or a jump, calls and jumps to other files and functions,
positions absolute, relative (`+N`, `-N`) and `*`, two events of which a
line gives none, one or two, names compressed or not."""
import random
import sys

R = random.Random(int(sys.argv[1]))
TWO_POSITIONS = R.random() < 0.5
COMPRESSED = R.random() < 0.5
FILES = ['a.c', 'b.h', 'c.c', 'd.h']
FUNCTIONS = ['f%d' % i for i in range(12)]
OBJECTS = ['libx.so', 'liby.so']
ids = {}


def name(kind, text):
    """A name as callgrind writes it: `(id) name` the first time in a part
    and `(id)` after, when compressed."""
    if not COMPRESSED:
        return text
    if (kind, text) in ids:
        return '(%d)' % ids[kind, text]
    ids[kind, text] = len(ids) + 1
    return '(%d) %s' % (ids[kind, text], text)


def position(absolute=False):
    words = []
    for column in range(2 if TWO_POSITIONS else 1):
        r = R.random()
        if absolute or r < 0.4:
            value = R.randint(100, 160)
            words.append(hex(value) if TWO_POSITIONS and column == 0
                         else str(value))
        elif r < 0.6:
            words.append('*')
        elif r < 0.8:
            words.append('+%d' % R.randint(1, 5))
        else:
            words.append('-%d' % R.randint(1, 3))
    return ' '.join(words)


def cost_line(absolute=False):
    costs = [str(R.randint(0, 9)) for _ in range(R.randint(0, 2))]
    return ' '.join([position(absolute)] + costs)


def function_block(lines, first):
    if R.random() < 0.2:
        lines.append('ob=' + name('ob', R.choice(OBJECTS)))
    if R.random() < 0.5:
        lines.append('fl=' + name('fl', R.choice(FILES)))
    lines.append('fn=' + name('fn', R.choice(FUNCTIONS)))
    if R.random() < 0.1:
        lines.append(R.choice(['fi=', 'fe=']) + name('fl', R.choice(FILES)))
    if R.random() < 0.05:
        lines.append(R.choice(['', '# a comment']))
    for line in range(R.randint(1, 12)):
        r = R.random()
        if line == 0 and (first or R.random() < 0.5):
            lines.append(cost_line(absolute=True))
        elif r < 0.5:
            if R.random() < 0.15:
                lines.append(R.choice(['fi=', 'fe=']) +
                             name('fl', R.choice(FILES)))
            lines.append(cost_line())
        elif r < 0.75:
            if R.random() < 0.3:
                lines.append('cob=' + name('ob', R.choice(OBJECTS)))
            if R.random() < 0.4:
                lines.append(R.choice(['cfi=', 'cfl=']) +
                             name('fl', R.choice(FILES)))
            lines.append('cfn=' + name('fn', R.choice(FUNCTIONS)))
            lines.append('calls=%d %s' % (R.randint(1, 4), position()))
            lines.append(cost_line())
        else:
            if R.random() < 0.3:
                lines.append('jfi=' + name('fl', R.choice(FILES)))
            if R.random() < 0.3:
                lines.append('jfn=' + name('fn', R.choice(FUNCTIONS)))
            if R.random() < 0.5:
                lines.append('jump=%d %s' % (R.randint(1, 4), position()))
            else:
                lines.append('jcnd=%d/%d %s' % (R.randint(0, 2),
                                                R.randint(2, 4), position()))
            lines.append(position())


lines = ['positions: instr line'] if TWO_POSITIONS else []
lines.append('events: Ir Dr')
for part in range(R.randint(1, 3)):
    if part:
        lines += ['part: %d' % (part + 1), 'events: Ir Dr']
        ids.clear()
    if R.random() < 0.3:
        lines.append('summary: %d %d' % (R.randint(0, 9999), R.randint(0, 99)))
    for block in range(R.randint(5, 60)):
        function_block(lines, block == 0)
sys.stdout.write('\n'.join(lines) + '\n')
