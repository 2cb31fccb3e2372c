import { buildPdf } from '../../src/sandbox/pdf';

describe('buildPdf', () => {
  it('writes a PDF whose cross-reference offsets point at its objects', () => {
    const pdf = buildPdf(['Payment booklet', 'Parentheses (and) back\\slash', 'Ünïcode becomes ?']).toString('latin1');
    expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
    expect(pdf.endsWith('%%EOF\n')).toBe(true);

    const startxref = Number(/startxref\n(\d+)\n/.exec(pdf)?.[1]);
    expect(pdf.slice(startxref, startxref + 4)).toBe('xref');
    const offsets = [...pdf.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(5);
    offsets.forEach((offset, i) => {
      expect(pdf.slice(offset).startsWith(`${i + 1} 0 obj`)).toBe(true);
    });

    const length = Number(/\/Length (\d+)/.exec(pdf)?.[1]);
    const streamStart = pdf.indexOf('stream\n') + 'stream\n'.length;
    expect(pdf.slice(streamStart + length, streamStart + length + '\nendstream'.length)).toBe('\nendstream');
    expect(pdf).toContain('(Parentheses \\(and\\) back\\\\slash)');
    expect(pdf).toContain('(?n?code becomes ?)');
  });
});
