/** A hue from the reel's address, so each reel keeps its colours wherever it appears. */
function hueOf(text: string): number {
  let hash = 0;
  for (const char of text) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 360;
  return hash;
}

/**
 * The cover of a reel before it plays (reels carry no picture of their own): abstract artwork
 * in 9:16, different for each reel — light beams, sound waves or rings — with no words in it.
 */
export function ReelArt({ url, index }: { url: string; index: number }) {
  const hue = (hueOf(url) + index * 120) % 360;
  const accent = `hsl(${(hue + 150) % 360} 85% 62%)`;
  const light = `hsl(${hue} 75% 60%)`;
  const id = `reel-art-${index}`;
  const motifs = [
    // Beams of light from the top.
    [0, 1, 2].map((beam) => (
      <path
        key={beam}
        d={`M${45 + beam * 45} 0 L${10 + beam * 45} 320 L${80 + beam * 45} 320 Z`}
        fill={beam === 1 ? accent : light}
        opacity={0.3}
      />
    )),
    // Sound waves.
    [0, 1, 2, 3, 4, 5].map((wave) => (
      <path
        key={wave}
        d={`M-5 ${70 + wave * 34} Q 45 ${50 + wave * 34} 90 ${70 + wave * 34} T 185 ${70 + wave * 34}`}
        fill="none"
        stroke={wave % 2 ? accent : light}
        strokeWidth={wave % 3 === 0 ? 6 : 3}
        opacity={0.7}
      />
    )),
    // Rings.
    [0, 1, 2, 3, 4].map((ring) => (
      <circle
        key={ring}
        cx={90}
        cy={130}
        r={18 + ring * 22}
        fill="none"
        stroke={ring % 2 ? accent : light}
        strokeWidth={ring % 2 ? 3 : 8}
        opacity={0.75 - ring * 0.1}
      />
    )),
  ];
  return (
    <svg viewBox="0 0 180 320" preserveAspectRatio="xMidYMid slice" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={id} x1="0" y1="0" x2="0.4" y2="1">
          <stop offset="0" stopColor={`hsl(${hue} 60% 32%)`} />
          <stop offset="1" stopColor={`hsl(${hue} 55% 10%)`} />
        </linearGradient>
      </defs>
      <rect width="180" height="320" fill={`url(#${id})`} />
      {motifs[index % motifs.length]}
      <path d="M0 270 C 60 250 120 285 180 262 V320 H0 Z" fill="rgb(0 0 0 / 0.35)" />
    </svg>
  );
}
