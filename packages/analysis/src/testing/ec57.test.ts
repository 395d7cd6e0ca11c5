// The test helpers that score the analysis must themselves be right: annotation text, rhythm episodes,
// beat matching and the presence tally.
import { describe, expect, it } from 'vitest';
import { presence, rhythmEpisodes, scoreBeats } from './ec57.ts';
import { parseAnnotations } from './wfdb.ts';

/** MIT-format words: each annotation is a 6-bit code and a 10-bit time increment; AUX carries text. */
function annotationBytes(entries: { code: number; after: number; aux?: string }[]): Uint8Array {
  const words: number[] = [];
  for (const { code, after, aux } of entries) {
    words.push((code << 10) | after);
    if (aux !== undefined) {
      const text = [...aux].map((c) => c.charCodeAt(0));
      if (text.length % 2 === 1) text.push(0);
      words.push((63 << 10) | aux.length);
      for (let i = 0; i < text.length; i += 2) words.push(text[i]! | (text[i + 1]! << 8));
    }
  }
  words.push(0);
  return new Uint8Array(new Uint16Array(words).buffer);
}

describe('rhythm episodes from MIT annotations', () => {
  const annotations = parseAnnotations(
    annotationBytes([
      { code: 1, after: 100 },
      { code: 28, after: 100, aux: '(VT' },
      { code: 5, after: 100 },
      { code: 32, after: 100 },
      { code: 33, after: 200 },
      { code: 28, after: 100, aux: '(N' },
    ]),
  );

  it('reads the rhythm text of each rhythm change', () => {
    expect(Array.from(annotations.samples)).toEqual([100, 200, 300, 400, 600, 700]);
    expect(annotations.aux).toEqual(['', '(VT', '', '', '', '(N']);
  });

  it("turns rhythm changes and '[' … ']' into episodes, back to the rhythm before the flutter", () => {
    expect(rhythmEpisodes(annotations, 1000)).toEqual([
      { rhythm: '(VT', from: 200, to: 400 },
      { rhythm: '(VFL', from: 400, to: 600 },
      { rhythm: '(VT', from: 600, to: 700 },
      { rhythm: '(N', from: 700, to: 1000 },
    ]);
  });

  it('counts the seconds shown out of bed during each arrhythmia, not during normal rhythm', () => {
    // 1 sample a second, 30 s: ventricular tachycardia 10–20 s, normal rhythm after.
    const states = Array.from(
      { length: 30 },
      (_, second) => (second === 14 || second === 15 || second === 25 ? 'outOfBed' : 'asleep') as 'outOfBed' | 'asleep',
    );
    const score = presence(
      {
        ecg: new Float32Array(30),
        sampleRate: 1,
        rhythms: [
          { rhythm: '(VT', from: 10, to: 20 },
          { rhythm: '(N', from: 20, to: 30 },
        ],
      },
      { states, heartRates: new Float64Array(30) },
    );
    expect(score.outOfBed).toBe(3);
    expect(score.seconds).toBe(22);
    expect([...score.arrhythmias]).toEqual([['(VT', { seconds: 10, outOfBed: 2 }]]);
  });
});

describe('beat-by-beat scoring', () => {
  it('matches each reference beat to the nearest detection within 150 ms, once, from the scoring start', () => {
    // 100 Hz, scored from 1.5 s: beat 100 and detection 101 are before the start; 200 takes 199; 330 is
    // 300 ms from 300, too far.
    const score = scoreBeats([100, 200, 300, 400, 500, 600], [101, 150, 199, 330, 600, 700], 100, 1.5, 0.15);
    expect(score.truePositives).toBe(2);
    expect(Array.from(score.missed)).toEqual([300, 400, 500]);
    expect(Array.from(score.falseDetections)).toEqual([150, 330, 700]);
    expect(score.longestMissRun).toBe(3);
  });
});
