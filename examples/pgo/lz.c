// The program behind examples/pgo/run.sh: a small LZ77 compressor and
// decompressor plus a word counter, run over deterministic generated text.
//
//   lz SEED SIZE_KB [REPEAT]
//
// generates SIZE_KB KiB of English-like text from SEED, then REPEAT times
// compresses it, decompresses it, checks the round trip and counts its words.
// The output depends only on the arguments, so the plain and the PGO build
// must print the same lines.
//
// What PGO can exploit: the match search (hot loop with a biased "quick
// reject" branch), small helpers meant to be inlined (hash, load32,
// varints, match_len), a decoder whose literal/match and copy-width branches
// are skewed by the data, and a tokenizer whose character classes and
// hash-table probes are skewed towards a few short words. The four stages
// have external linkage, as a library's entry points would, so that they stay
// functions of their own instead of all being inlined into main.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  MinMatch = 4,
  MaxMatch = 258,
  WindowBits = 16,
  Window = 1 << WindowBits,
  HashBits = 15,
  MaxChain = 48,
  WordTableBits = 12,
};

// ---- Deterministic input ---------------------------------------------------

static uint64_t RngState;

static inline uint64_t rngNext(void) { // xorshift64*
  RngState ^= RngState >> 12;
  RngState ^= RngState << 25;
  RngState ^= RngState >> 27;
  return RngState * 0x2545F4914F6CDD1DULL;
}

static const char *const Words[] = {
    "the",         "of",
    "and",         "to",
    "in",          "a",
    "is",          "that",
    "for",         "it",
    "as",          "was",
    "with",        "be",
    "by",          "on",
    "not",         "he",
    "this",        "are",
    "or",          "his",
    "from",        "at",
    "which",       "but",
    "have",        "an",
    "had",         "they",
    "you",         "were",
    "their",       "one",
    "all",         "we",
    "can",         "her",
    "has",         "there",
    "been",        "if",
    "more",        "when",
    "will",        "would",
    "who",         "so",
    "compiler",    "profile",
    "sample",      "branch",
    "inline",      "counter",
    "function",    "address",
    "valgrind",    "callgrind",
    "optimize",    "layout",
    "instruction", "discriminator",
    "duplication", "deterministic",
};
enum { NumWords = sizeof(Words) / sizeof(Words[0]) };

// Zipf-like: small indices (short common words) are much more likely.
static size_t pickWord(void) {
  uint64_t U = rngNext() >> 54; // 0..1023
  return (size_t)((U * U * U * NumWords) >> 30);
}

size_t generateText(unsigned char *Buf, size_t Size, uint64_t Seed) {
  RngState = Seed * 0x9E3779B97F4A7C15ULL + 1;
  size_t N = 0, Column = 0;
  int Capitalize = 1;
  while (N + 32 < Size) {
    uint64_t R = rngNext();
    if (R % 100 < 2) { // a number now and then
      N += (size_t)sprintf((char *)Buf + N, "%u", (unsigned)(R >> 40) % 10000);
    } else {
      const char *W = Words[pickWord()];
      size_t L = strlen(W);
      memcpy(Buf + N, W, L);
      if (Capitalize)
        Buf[N] = (unsigned char)(Buf[N] - 'a' + 'A');
      N += L;
    }
    Column += 6;
    Capitalize = 0;
    uint64_t P = (R >> 20) % 64;
    if (P == 0) {
      Buf[N++] = '.';
      Capitalize = 1;
    } else if (P == 1) {
      Buf[N++] = ',';
    }
    if (Column > 70) {
      Buf[N++] = '\n';
      Column = 0;
    } else {
      Buf[N++] = ' ';
    }
  }
  return N;
}

// ---- Compressor -----------------------------------------------------------
//
// Token stream: varint (Len << 1) followed by Len literal bytes, or
// varint ((Len - MinMatch) << 1 | 1) followed by varint Distance.

static inline uint32_t load32(const unsigned char *P) {
  uint32_t V;
  memcpy(&V, P, sizeof V);
  return V;
}

static inline uint32_t hash4(const unsigned char *P) {
  return (load32(P) * 2654435761u) >> (32 - HashBits);
}

static inline size_t matchLength(const unsigned char *A, const unsigned char *B,
                                 size_t Max) {
  size_t N = 0;
  while (N + 4 <= Max && load32(A + N) == load32(B + N))
    N += 4;
  while (N < Max && A[N] == B[N])
    ++N;
  return N;
}

static inline unsigned char *putVarint(unsigned char *Out, uint32_t V) {
  while (V >= 0x80) {
    *Out++ = (unsigned char)(V | 0x80);
    V >>= 7;
  }
  *Out++ = (unsigned char)V;
  return Out;
}

static unsigned char *putLiterals(unsigned char *Out, const unsigned char *Lit,
                                  size_t N) {
  if (N == 0)
    return Out;
  Out = putVarint(Out, (uint32_t)(N << 1));
  memcpy(Out, Lit, N);
  return Out + N;
}

struct Compressor {
  int32_t Head[1 << HashBits];
  int32_t Prev[Window];
};

static inline void insertHash(struct Compressor *C, const unsigned char *In,
                              size_t I) {
  uint32_t H = hash4(In + I);
  C->Prev[I & (Window - 1)] = C->Head[H];
  C->Head[H] = (int32_t)I;
}

// Out must have room for Size + Size / 64 + 16 bytes.
size_t compress(struct Compressor *C, const unsigned char *In, size_t Size,
                unsigned char *Out) {
  unsigned char *O = Out;
  memset(C->Head, 0xff, sizeof C->Head);
  size_t I = 0, LitStart = 0;
  while (I + MinMatch <= Size) {
    int32_t Cand = C->Head[hash4(In + I)];
    insertHash(C, In, I);
    size_t Limit = Size - I < MaxMatch ? Size - I : MaxMatch;
    size_t BestLen = 0, BestDist = 0;
    for (int Chain = MaxChain; Cand >= 0 && I - (size_t)Cand < Window && Chain;
         --Chain) {
      // Quick reject: a longer match must agree at the current best length.
      if (In[Cand + BestLen] == In[I + BestLen]) {
        size_t Len = matchLength(In + Cand, In + I, Limit);
        if (Len > BestLen) {
          BestLen = Len;
          BestDist = I - (size_t)Cand;
          if (Len == Limit)
            break;
        }
      }
      Cand = C->Prev[Cand & (Window - 1)];
    }
    if (BestLen < MinMatch) {
      ++I;
      continue;
    }
    O = putLiterals(O, In + LitStart, I - LitStart);
    O = putVarint(O, (uint32_t)((BestLen - MinMatch) << 1 | 1));
    O = putVarint(O, (uint32_t)BestDist);
    size_t End = I + BestLen;
    for (++I; I < End && I + MinMatch <= Size; ++I)
      insertHash(C, In, I);
    I = End;
    LitStart = I;
  }
  O = putLiterals(O, In + LitStart, Size - LitStart);
  return (size_t)(O - Out);
}

// ---- Decompressor ---------------------------------------------------------

static inline const unsigned char *
getVarint(const unsigned char *In, const unsigned char *End, uint32_t *V) {
  uint32_t R = 0;
  for (int Shift = 0; In < End && Shift < 32; Shift += 7) {
    unsigned char B = *In++;
    R |= (uint32_t)(B & 0x7f) << Shift;
    if (!(B & 0x80)) {
      *V = R;
      return In;
    }
  }
  return NULL;
}

// Out must have Cap + 8 bytes (the match copy may write 8 bytes past the
// end of a match). Returns the decompressed size, or (size_t)-1 on bad input.
size_t decompress(const unsigned char *In, size_t Size, unsigned char *Out,
                  size_t Cap) {
  const unsigned char *End = In + Size;
  unsigned char *O = Out, *OEnd = Out + Cap;
  while (In < End) {
    uint32_t Tok;
    if (!(In = getVarint(In, End, &Tok)))
      return (size_t)-1;
    size_t Len = Tok >> 1;
    if (!(Tok & 1)) {
      if (Len > (size_t)(End - In) || Len > (size_t)(OEnd - O))
        return (size_t)-1;
      memcpy(O, In, Len);
      O += Len;
      In += Len;
      continue;
    }
    uint32_t Dist;
    Len += MinMatch;
    if (!(In = getVarint(In, End, &Dist)) || Dist == 0 ||
        Dist > (size_t)(O - Out) || Len > (size_t)(OEnd - O))
      return (size_t)-1;
    const unsigned char *From = O - Dist;
    if (Dist >= 8) { // copy 8 bytes at a time; may overrun by up to 7
      for (size_t K = 0; K < Len; K += 8)
        memcpy(O + K, From + K, 8);
    } else { // overlapping run
      for (size_t K = 0; K < Len; ++K)
        O[K] = From[K];
    }
    O += Len;
  }
  return (size_t)(O - Out);
}

// ---- Word counter -------------------------------------------------------

struct WordEntry {
  const unsigned char *Text;
  uint32_t Len;
  uint32_t Count;
};

struct WordTable {
  struct WordEntry Slots[1 << WordTableBits];
  size_t Used;
};

enum CharClass { Other, Lower, Upper, Digit };

static inline enum CharClass classify(unsigned char Ch) {
  if (Ch >= 'a' && Ch <= 'z')
    return Lower;
  if (Ch == ' ' || Ch == '\n' || Ch == '.' || Ch == ',')
    return Other;
  if (Ch >= 'A' && Ch <= 'Z')
    return Upper;
  if (Ch >= '0' && Ch <= '9')
    return Digit;
  return Other;
}

static inline uint32_t hashWord(const unsigned char *P, size_t N) {
  uint32_t H = 2166136261u; // FNV-1a, case-folded
  for (size_t K = 0; K < N; ++K)
    H = (H ^ (P[K] | 0x20u)) * 16777619u;
  return H;
}

static int sameWord(const unsigned char *A, const unsigned char *B, size_t N) {
  for (size_t K = 0; K < N; ++K)
    if ((A[K] | 0x20) != (B[K] | 0x20))
      return 0;
  return 1;
}

static void addWord(struct WordTable *T, const unsigned char *P, size_t N) {
  uint32_t Mask = (1u << WordTableBits) - 1;
  for (uint32_t S = hashWord(P, N) & Mask;; S = (S + 1) & Mask) {
    struct WordEntry *E = &T->Slots[S];
    if (E->Len == N && sameWord(E->Text, P, N)) {
      ++E->Count;
      return;
    }
    if (E->Len == 0) {
      if (T->Used + 1 >= Mask) // keep one slot free; the text has few words
        return;
      E->Text = P;
      E->Len = (uint32_t)N;
      E->Count = 1;
      ++T->Used;
      return;
    }
  }
}

// Counts the words (letters only; numbers are counted apart). Returns the
// number of words.
size_t countWords(struct WordTable *T, const unsigned char *P, size_t Size,
                  size_t *Numbers) {
  size_t Total = 0;
  for (size_t I = 0; I < Size;) {
    enum CharClass C = classify(P[I]);
    if (C == Other) {
      ++I;
      continue;
    }
    size_t Start = I;
    if (C == Digit) {
      while (I < Size && classify(P[I]) == Digit)
        ++I;
      ++*Numbers;
      continue;
    }
    ++I;
    while (I < Size && classify(P[I]) == Lower)
      ++I;
    addWord(T, P + Start, I - Start);
    ++Total;
  }
  return Total;
}

// ---- Driver ---------------------------------------------------------------

static uint32_t checksum(const unsigned char *P, size_t N) {
  uint32_t A = 1, B = 0; // Adler-32
  for (size_t K = 0; K < N; ++K) {
    A = (A + P[K]) % 65521;
    B = (B + A) % 65521;
  }
  return B << 16 | A;
}

int main(int Argc, char **Argv) {
  if (Argc < 3 || Argc > 4) {
    fprintf(stderr, "usage: %s SEED SIZE_KB [REPEAT]\n", Argv[0]);
    return 2;
  }
  uint64_t Seed = strtoull(Argv[1], NULL, 10);
  size_t Size = (size_t)strtoul(Argv[2], NULL, 10) * 1024;
  int Repeat = Argc == 4 ? atoi(Argv[3]) : 1;
  unsigned char *In = malloc(Size + 64);
  unsigned char *Packed = malloc(Size + Size / 64 + 16);
  unsigned char *Back = malloc(Size + 8);
  struct Compressor *C = malloc(sizeof *C);
  struct WordTable *T = calloc(1, sizeof *T);
  if (!In || !Packed || !Back || !C || !T) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  size_t N = generateText(In, Size, Seed);
  size_t PackedSize = 0, Words = 0, Numbers = 0;
  for (int R = 0; R < Repeat; ++R) {
    PackedSize = compress(C, In, N, Packed);
    size_t M = decompress(Packed, PackedSize, Back, Size);
    if (M != N || memcmp(In, Back, N) != 0) {
      fprintf(stderr, "round trip failed\n");
      return 1;
    }
    memset(T, 0, sizeof *T);
    Numbers = 0;
    Words = countWords(T, Back, M, &Numbers);
  }
  const struct WordEntry *Top = NULL;
  for (size_t S = 0; S < (1u << WordTableBits); ++S)
    if (T->Slots[S].Len && (!Top || T->Slots[S].Count > Top->Count))
      Top = &T->Slots[S];
  printf("input %zu bytes, adler32 %08x\n", N, (unsigned)checksum(In, N));
  printf("compressed %zu bytes (%.1f%%)\n", PackedSize,
         100.0 * (double)PackedSize / (double)N);
  printf("%zu words, %zu distinct, %zu numbers, most common \"", Words, T->Used,
         Numbers);
  for (uint32_t K = 0; Top && K < Top->Len; ++K)
    putchar(Top->Text[K] | 0x20);
  printf("\" x%u\n", Top ? Top->Count : 0);
  free(In);
  free(Packed);
  free(Back);
  free(C);
  free(T);
  return 0;
}
