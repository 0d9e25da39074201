/**
 * Draws the embedded GIF catalogue (catalogue.ts) frame by frame as SVG and writes each as an animated
 * GIF through sharp, into `../media/gifs/`. Made here, not downloaded: run it again after changing a
 * drawing and commit the files (`npx tsx apps/server/src/modules/chat/gifs/make-gifs.ts`).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { LOCAL_GIF_SIZE, LOCAL_GIFS } from "./catalogue.ts";

const FRAMES = 12;
const DELAY_MS = 90;
const outDir = fileURLToPath(new URL("../media/gifs/", import.meta.url));

/** t runs over [0, 1) once per loop; `wave(t)` is a smooth -1…1 that loops without a jump. */
const wave = (t: number, times = 1) => Math.sin(2 * Math.PI * t * times);
const f = (n: number) => n.toFixed(2);

const heartPath = (cx: number, cy: number, s: number, fill: string) =>
  `<path transform="translate(${f(cx)} ${f(cy)}) scale(${f(s)})" d="M0 12 C-14 2 -18 -6 -18 -11 C-18 -18 -12 -22 -7 -22 C-3 -22 -1 -19 0 -16 C1 -19 3 -22 7 -22 C12 -22 18 -18 18 -11 C18 -6 14 2 0 12Z" fill="${fill}"/>`;
const starPath = (cx: number, cy: number, r: number, fill: string, turn = 0) => {
  const points = Array.from({ length: 10 }, (_, i) => {
    const angle = (Math.PI / 5) * i - Math.PI / 2 + turn;
    const radius = i % 2 === 0 ? r : r * 0.45;
    return `${f(cx + radius * Math.cos(angle))},${f(cy + radius * Math.sin(angle))}`;
  });
  return `<polygon points="${points.join(" ")}" fill="${fill}"/>`;
};

type Eyes = "dots" | "happy" | "wink" | "hearts" | "shades" | "wide" | "sad" | "closed";
type Mouth = "smile" | "grin" | "open" | "kiss" | "o" | "frown" | "flat";

/** A round yellow face at (cx, cy), radius 34, with the given eyes and mouth; `blink` 0…1 closes the eyes. */
function face(cx: number, cy: number, eyes: Eyes, mouth: Mouth, extra = "", tilt = 0): string {
  const eye = (x: number) => {
    switch (eyes) {
      case "dots":
        return `<ellipse cx="${x}" cy="-8" rx="4" ry="5.5" fill="#3d2b1f"/>`;
      case "happy":
      case "closed":
        return `<path d="M${x - 6} -6 Q${x} ${eyes === "happy" ? -14 : -2} ${x + 6} -6" stroke="#3d2b1f" stroke-width="3.5" fill="none" stroke-linecap="round"/>`;
      case "wink":
        return x < 0
          ? `<ellipse cx="${x}" cy="-8" rx="4" ry="5.5" fill="#3d2b1f"/>`
          : `<path d="M${x - 6} -7 Q${x} -2 ${x + 6} -7" stroke="#3d2b1f" stroke-width="3.5" fill="none" stroke-linecap="round"/>`;
      case "hearts":
        return heartPath(x, -6, 0.42, "#e63950");
      case "wide":
        return `<circle cx="${x}" cy="-9" r="7" fill="#fff" stroke="#3d2b1f" stroke-width="2"/><circle cx="${x}" cy="-9" r="3.5" fill="#3d2b1f"/>`;
      case "sad":
        return `<ellipse cx="${x}" cy="-6" rx="3.5" ry="5" fill="#3d2b1f"/><path d="M${x - 7} ${x < 0 ? -14 : -18} L${x + 7} ${x < 0 ? -18 : -14}" stroke="#3d2b1f" stroke-width="2.5" stroke-linecap="round"/>`;
      case "shades":
        return "";
    }
  };
  const mouths: Record<Mouth, string> = {
    smile: `<path d="M-13 9 Q0 22 13 9" stroke="#3d2b1f" stroke-width="3.5" fill="none" stroke-linecap="round"/>`,
    grin: `<path d="M-16 6 Q0 30 16 6Z" fill="#7a1f1f"/><path d="M-9 20 Q0 24 9 20 Q0 14 -9 20Z" fill="#ff7b8a"/>`,
    open: `<ellipse cx="0" cy="14" rx="11" ry="9" fill="#7a1f1f"/><ellipse cx="0" cy="19" rx="6" ry="3" fill="#ff7b8a"/>`,
    kiss: `<path d="M-2 8 Q6 11 1 15 Q7 18 -2 22" stroke="#c2185b" stroke-width="3.5" fill="none" stroke-linecap="round"/>`,
    o: `<ellipse cx="0" cy="15" rx="7" ry="9" fill="#7a1f1f"/>`,
    frown: `<path d="M-12 18 Q0 8 12 18" stroke="#3d2b1f" stroke-width="3.5" fill="none" stroke-linecap="round"/>`,
    flat: `<path d="M-10 14 L10 14" stroke="#3d2b1f" stroke-width="3.5" stroke-linecap="round"/>`,
  };
  const shades =
    eyes === "shades"
      ? `<path d="M-26 -14 L26 -14 L24 -4 Q20 4 8 2 L3 -8 L-3 -8 L-8 2 Q-20 4 -24 -4Z" fill="#1b1b1b"/><path d="M-20 -11 L-12 -11" stroke="#777" stroke-width="2"/>`
      : "";
  return `<g transform="translate(${f(cx)} ${f(cy)}) rotate(${f(tilt)})">
    <circle r="34" fill="#ffd43b"/><circle r="34" fill="none" stroke="#f4a100" stroke-width="2"/>
    <ellipse cx="-20" cy="8" rx="6" ry="3.5" fill="#ff9f9f" opacity="0.6"/><ellipse cx="20" cy="8" rx="6" ry="3.5" fill="#ff9f9f" opacity="0.6"/>
    ${eye(-12)}${eye(12)}${shades}${mouths[mouth]}${extra}</g>`;
}

const background = (color: string) => `<rect width="120" height="120" fill="${color}"/>`;

/** Each GIF's drawing at time t. */
const drawings: Record<string, (t: number) => string> = {
  hello: (t) => {
    const angle = 25 * wave(t, 2);
    return `${background("#e3f2fd")}${face(52, 66, "happy", "grin")}
      <g transform="translate(96 62) rotate(${f(angle)})">
        <rect x="-8" y="-6" width="16" height="26" rx="7" fill="#ffc078"/>
        <ellipse cx="0" cy="-10" rx="12" ry="13" fill="#ffc078"/>
        ${[-9, -3, 3, 9].map((x) => `<rect x="${x - 2.5}" y="-34" width="5" height="18" rx="2.5" fill="#ffc078"/>`).join("")}
        <rect x="-17" y="-16" width="6" height="14" rx="3" fill="#ffc078" transform="rotate(-35 -14 -10)"/>
      </g>`;
  },
  heart: (t) => {
    const s = 1.9 + 0.35 * Math.max(0, wave(t, 2));
    return `${background("#ffe3e8")}${heartPath(60, 64, s, "#e63950")}${heartPath(60, 64, s * 0.55, "#ff6b81")}`;
  },
  kiss: (t) => {
    const rise = 70 - 60 * t;
    return `${background("#fde2f3")}${face(54, 66, "wink", "kiss")}${heartPath(92, rise, 0.5 + 0.3 * t, `rgba(230,57,80,${f(1 - t * 0.7)})`)}`;
  },
  laugh: (t) => {
    const bounce = 4 * Math.abs(wave(t, 3));
    const tear = `<path d="M-30 -2 Q-36 8 -30 12 Q-24 8 -30 -2Z" fill="#74c0fc"/><path d="M30 -2 Q24 8 30 12 Q36 8 30 -2Z" fill="#74c0fc"/>`;
    return `${background("#fff3bf")}${face(60, 62 - bounce, "happy", "grin", tear, 8 * wave(t, 3))}`;
  },
  wink: (t) => {
    const closed = t > 0.35 && t < 0.7;
    return `${background("#f3d9fa")}${face(60, 60, closed ? "wink" : "dots", "smile", "", closed ? 6 : 0)}`;
  },
  party: (t) => {
    const colors = ["#e63950", "#4dabf7", "#51cf66", "#fcc419", "#cc5de8"];
    const confetti = Array.from({ length: 14 }, (_, i) => {
      const x = (i * 37) % 120;
      const y = ((i * 23 + t * 120) % 130) - 10;
      return `<rect x="${x}" y="${f(y)}" width="6" height="3" fill="${colors[i % colors.length]}" transform="rotate(${f(i * 40 + t * 360)} ${x + 3} ${f(y + 1.5)})"/>`;
    }).join("");
    const hat = `<path d="M-14 -30 L0 -62 L14 -30Z" fill="#cc5de8"/><circle cy="-63" r="5" fill="#fcc419"/><path d="M-9 -40 L9 -40" stroke="#fcc419" stroke-width="3"/>`;
    return `${background("#e6fcf5")}${face(60, 72, "happy", "open", hat, 6 * wave(t))}${confetti}`;
  },
  thanks: (t) => {
    const bow = 10 + 10 * wave(t);
    const sparkle = (x: number, y: number, k: number) => starPath(x, y, 5 + 3 * Math.abs(wave(t + k)), "#fab005");
    return `${background("#fff0f6")}${face(60, 66, "closed", "smile", heartPath(0, 24, 0.35, "#e63950"), bow)}${sparkle(18, 22, 0)}${sparkle(102, 28, 0.3)}${sparkle(100, 100, 0.6)}`;
  },
  sorry: (t) => {
    const drop = `<path d="M28 -26 Q22 -14 28 -10 Q34 -14 28 -26Z" fill="#74c0fc"/>`;
    return `${background("#e7f5ff")}${face(60, 62, "sad", "flat", drop, 7 * wave(t))}`;
  },
  coffee: (t) => {
    const steam = (x: number, k: number) => {
      const y = 36 - 8 * ((t + k) % 1);
      return `<path d="M${x} ${f(y + 12)} C${x - 6} ${f(y + 6)} ${x + 6} ${f(y)} ${x} ${f(y - 8)}" stroke="rgba(134,142,150,${f(1 - ((t + k) % 1))})" stroke-width="3" fill="none" stroke-linecap="round"/>`;
    };
    return `${background("#f8f0e3")}
      <path d="M28 54 L84 54 L80 96 Q79 102 72 102 L40 102 Q33 102 32 96Z" fill="#fff" stroke="#8d6e63" stroke-width="3"/>
      <path d="M84 62 Q100 62 98 76 Q96 86 82 86" stroke="#8d6e63" stroke-width="4" fill="none"/>
      <ellipse cx="56" cy="56" rx="26" ry="5" fill="#6d4c41"/>${heartPath(56, 80, 0.45, "#e63950")}
      ${steam(46, 0)}${steam(58, 0.33)}${steam(70, 0.66)}`;
  },
  "good-night": (t) => {
    const twinkle = (x: number, y: number, k: number) => starPath(x, y, 3 + 3 * Math.abs(wave(t + k)), "#ffe066");
    const z = (x: number, y: number, s: number, k: number) =>
      `<path transform="translate(${x} ${f(y - 10 * ((t + k) % 1))}) scale(${s})" d="M0 0 L10 0 L0 10 L10 10" stroke="rgba(255,255,255,${f(1 - ((t + k) % 1))})" stroke-width="2.5" fill="none" stroke-linejoin="round"/>`;
    return `${background("#1c2541")}
      <path d="M70 20 A40 40 0 1 0 96 88 A32 32 0 1 1 70 20Z" fill="#ffe066"/>
      ${twinkle(24, 24, 0)}${twinkle(100, 20, 0.4)}${twinkle(18, 96, 0.7)}${z(78, 52, 1, 0)}${z(92, 40, 0.7, 0.5)}`;
  },
  "good-morning": (t) => {
    const y = 78 - 10 * Math.min(1, t * 2);
    const rays = Array.from({ length: 12 }, (_, i) => {
      const a = (i / 12) * 360 + t * 30;
      return `<rect x="-3" y="-44" width="6" height="12" rx="3" fill="#ff922b" transform="rotate(${f(a)})"/>`;
    }).join("");
    return `${background("#fff4e6")}<g transform="translate(60 ${f(y)})">${rays}<circle r="26" fill="#ffd43b"/>
      <path d="M-10 -4 Q-6 -8 -2 -4 M2 -4 Q6 -8 10 -4" stroke="#3d2b1f" stroke-width="2.5" fill="none" stroke-linecap="round"/>
      <path d="M-8 6 Q0 14 8 6" stroke="#3d2b1f" stroke-width="2.5" fill="none" stroke-linecap="round"/></g>
      <rect y="96" width="120" height="24" fill="#8ce99a"/>`;
  },
  hug: (t) => {
    const gap = 10 * Math.abs(wave(t));
    const mini = (x: number, flip: number) =>
      `<g transform="translate(${f(x)} 70) scale(0.7)">${face(0, 0, "closed", "smile", `<path d="M${-30 * flip} 20 Q${10 * flip} 46 ${40 * flip} 14" stroke="#f4a100" stroke-width="8" fill="none" stroke-linecap="round"/>`)}</g>`;
    return `${background("#fff0f6")}${mini(38 - gap, 1)}${mini(82 + gap, -1)}${heartPath(60, 24, 0.6 + 0.2 * (1 - gap / 10), "#e63950")}`;
  },
  yes: (t) => {
    const drawn = Math.min(1, t * 1.6);
    return `${background("#ebfbee")}<circle cx="60" cy="60" r="42" fill="#40c057"/>
      <path d="M38 62 L54 78 L84 44" stroke="#fff" stroke-width="10" fill="none" stroke-linecap="round" stroke-linejoin="round"
        stroke-dasharray="72" stroke-dashoffset="${f(72 * (1 - drawn))}"/>`;
  },
  no: (t) => {
    const shake = 8 * wave(t, 3);
    return `${background("#fff5f5")}<g transform="translate(${f(60 + shake)} 60)"><circle r="42" fill="#fa5252"/>
      <path d="M-18 -18 L18 18 M18 -18 L-18 18" stroke="#fff" stroke-width="10" stroke-linecap="round"/></g>`;
  },
  love: (t) => {
    const s = 1 + 0.12 * Math.max(0, wave(t, 2));
    return `${background("#ffe3e3")}<g transform="translate(60 62) scale(${f(s)}) translate(-60 -62)">${face(60, 62, "hearts", "grin")}</g>
      ${heartPath(16, 20 + 6 * wave(t), 0.35, "#ff8787")}${heartPath(104, 100 - 6 * wave(t), 0.35, "#ff8787")}`;
  },
  cool: (t) => {
    const down = Math.min(1, t * 2);
    return `${background("#e7f5ff")}${face(60, 62, "dots", "smile")}
      <g transform="translate(60 ${f(24 + 30 * down)})"><path d="M-26 -10 L26 -10 L24 0 Q20 8 8 6 L3 -4 L-3 -4 L-8 6 Q-20 8 -24 0Z" fill="#1b1b1b"/>
      <path d="M-20 -7 L-12 -7" stroke="#777" stroke-width="2"/></g>`;
  },
  wow: (t) => {
    const s = 1 + 0.15 * Math.abs(wave(t));
    return `${background("#f3f0ff")}<g transform="translate(60 62) scale(${f(s)}) translate(-60 -62)">${face(60, 62, "wide", "o")}</g>
      <path d="M14 30 L24 36 M12 48 L24 48 M106 30 L96 36 M108 48 L96 48" stroke="#7048e8" stroke-width="3" stroke-linecap="round"/>`;
  },
  sad: (t) => {
    const y = -4 + 30 * t;
    const tear = `<path d="M-14 ${f(y)} Q-19 ${f(y + 9)} -14 ${f(y + 12)} Q-9 ${f(y + 9)} -14 ${f(y)}Z" fill="#4dabf7" opacity="${f(1 - t * 0.8)}"/>`;
    return `${background("#e9ecef")}${face(60, 60, "sad", "frown", tear)}`;
  },
  dance: (t) => {
    const sway = 16 * wave(t, 2);
    const note = (x: number, k: number) => {
      const y = 40 - 20 * ((t + k) % 1);
      return `<g transform="translate(${x} ${f(y)})" opacity="${f(1 - ((t + k) % 1))}"><ellipse cx="0" cy="10" rx="5" ry="4" fill="#7048e8"/><path d="M4.5 10 L4.5 -8 L12 -4" stroke="#7048e8" stroke-width="2.5" fill="none"/></g>`;
    };
    return `${background("#f8f0fc")}${face(60 + sway * 0.6, 70 - 4 * Math.abs(wave(t, 2)), "happy", "open", "", sway)}${note(16, 0)}${note(100, 0.5)}`;
  },
  flowers: (t) => {
    const flower = (x: number, y: number, color: string, k: number) => {
      const petals = Array.from(
        { length: 6 },
        (_, i) => `<ellipse cx="0" cy="-11" rx="6" ry="10" fill="${color}" transform="rotate(${i * 60 + 20 * wave(t + k)})"/>`,
      ).join("");
      return `<path d="M${x} ${y} L${x} 112" stroke="#37b24d" stroke-width="4"/><g transform="translate(${x} ${y})">${petals}<circle r="6" fill="#fcc419"/></g>`;
    };
    return `${background("#ebfbee")}${flower(30, 58, "#f783ac", 0)}${flower(60, 40, "#e64980", 0.3)}${flower(90, 60, "#b197fc", 0.6)}`;
  },
  fire: (t) => {
    const s = 1 + 0.08 * wave(t, 3);
    const lean = 4 * wave(t, 2);
    return `${background("#fff4e6")}<g transform="translate(60 104) scale(${f(1 / s)} ${f(s)}) skewX(${f(lean)})">
      <path d="M0 0 C-34 0 -40 -34 -20 -56 C-18 -40 -8 -38 -6 -46 C-4 -66 6 -80 10 -92 C16 -72 40 -56 34 -26 C32 -8 18 0 0 0Z" fill="#fa5252"/>
      <path d="M0 0 C-20 0 -24 -22 -10 -36 C-8 -26 2 -26 2 -34 C10 -26 24 -18 18 -6 C14 0 8 0 0 0Z" fill="#ffa94d"/>
      <path d="M0 0 C-8 0 -12 -10 -4 -18 C-2 -12 4 -12 6 -16 C10 -8 8 0 0 0Z" fill="#ffe066"/></g>`;
  },
  stars: (t) =>
    `${background("#1c2541")}${[
      [30, 30, 12, 0],
      [84, 24, 9, 0.25],
      [60, 64, 18, 0.5],
      [26, 92, 10, 0.75],
      [94, 88, 13, 0.1],
    ]
      .map(([x = 0, y = 0, r = 0, k = 0]) => starPath(x, y, r * (0.6 + 0.4 * Math.abs(wave(t + k))), "#ffe066", t * 1.2))
      .join("")}`,
  cheers: (t) => {
    const tilt = 14 * Math.max(0, wave(t));
    const glass = (x: number, angle: number) => `<g transform="translate(${x} 104) rotate(${f(angle)})">
      <path d="M-14 -86 L14 -86 L10 -40 Q0 -32 -10 -40Z" fill="#ffd43b" stroke="#e67700" stroke-width="2"/>
      <path d="M-14 -86 L14 -86 L13 -76 L-13 -76Z" fill="#fff9db"/><path d="M0 -34 L0 -6 M-10 -4 L10 -4" stroke="#868e96" stroke-width="3" stroke-linecap="round"/></g>`;
    const clink = tilt > 10 ? starPath(60, 20, 8, "#fab005") : "";
    return `${background("#f1f3f5")}${glass(42, tilt)}${glass(78, -tilt)}${clink}`;
  },
  "miss-you": (t) => {
    const y = 44 - 30 * t;
    return `${background("#edf2ff")}${face(52, 72, "sad", "flat", "", -8)}${heartPath(94, y, 0.7 - 0.3 * t, `rgba(230,57,80,${f(1 - t * 0.6)})`)}`;
  },
};

async function make(name: string): Promise<Buffer> {
  const draw = drawings[name];
  if (!draw) throw new Error(`no drawing for ${name}`);
  const frames = await Promise.all(
    Array.from({ length: FRAMES }, (_, i) => {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${LOCAL_GIF_SIZE}" height="${LOCAL_GIF_SIZE}" viewBox="0 0 120 120">${draw(i / FRAMES)}</svg>`;
      return sharp(Buffer.from(svg)).png().toBuffer();
    }),
  );
  return sharp(frames, { join: { animated: true } })
    .gif({ delay: Array(FRAMES).fill(DELAY_MS), loop: 0, colours: 64, effort: 10 })
    .toBuffer();
}

await mkdir(outDir, { recursive: true });
for (const entry of LOCAL_GIFS) {
  const name = entry.id.replace(/^local-/, "");
  const bytes = await make(name);
  await writeFile(`${outDir}${name}.gif`, bytes);
  console.log(`${name}.gif ${bytes.length} bytes`);
}
