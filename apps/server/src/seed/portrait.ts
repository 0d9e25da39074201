/**
 * A generated, clearly illustrated portrait for a demo profile (SVG, rendered to JPEG by sharp): a
 * gradient background, a silhouette in the profile's hair colour and the name's initial. Nothing is
 * downloaded; the same inputs always give the same picture.
 */
const HAIR: Record<string, string> = {
  black: "#1f1b1a",
  blond: "#e2c275",
  dark_blond: "#b58f4c",
  brunette: "#5a3825",
  brown: "#7a4a2a",
  dark_brown: "#3f2718",
  gray: "#9a9a9a",
  red: "#a8432a",
  white: "#e8e4dc",
  bald: "#c99b7a",
  other: "#6d4c8d",
};
const SKIN = ["#f1c7a5", "#e0ac84", "#c68a5f", "#a86b45", "#7c4a2d", "#f6d7bd"];
const BACKGROUNDS = [
  ["#ff9a8b", "#ff6a88"],
  ["#a18cd1", "#fbc2eb"],
  ["#84fab0", "#8fd3f4"],
  ["#fccb90", "#d57eeb"],
  ["#e0c3fc", "#8ec5fc"],
  ["#f6d365", "#fda085"],
  ["#96e6a1", "#d4fc79"],
  ["#89f7fe", "#66a6ff"],
];

export function portraitSvg(input: {
  seed: number;
  initial: string;
  hairColor: string | null;
  gender: "male" | "female";
  variant: number;
}): string {
  const pick = <T>(list: readonly T[], salt: number): T =>
    list[(input.seed * 31 + salt * 17 + input.variant * 7) % list.length] as T;
  const [from, to] = pick(BACKGROUNDS, 1);
  const skin = pick(SKIN, 2);
  const hair = HAIR[input.hairColor ?? "other"] ?? HAIR.other;
  const longHair = input.gender === "female" && input.hairColor !== "bald";
  const shirt = pick(["#2d3e50", "#8e44ad", "#16a085", "#c0392b", "#2c82c9", "#d35400"], 3);
  const tilt = ((input.seed + input.variant * 13) % 11) - 5;
  const initial = input.initial.replace(/[<>&"']/g, "");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="600" viewBox="0 0 480 600">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="480" height="600" fill="url(#g)"/>
  <circle cx="${80 + (input.seed % 5) * 70}" cy="${90 + (input.variant % 3) * 40}" r="46" fill="#ffffff" opacity="0.18"/>
  <g transform="rotate(${tilt} 240 330)">
    ${longHair ? `<path d="M130 300 Q120 150 240 140 Q360 150 350 300 L370 470 L110 470 Z" fill="${hair}"/>` : ""}
    <path d="M90 600 Q100 440 240 430 Q380 440 390 600 Z" fill="${shirt}"/>
    <rect x="215" y="370" width="50" height="70" rx="20" fill="${skin}"/>
    <ellipse cx="240" cy="290" rx="88" ry="104" fill="${skin}"/>
    ${input.hairColor === "bald" ? "" : `<path d="M150 270 Q150 180 240 178 Q330 180 330 270 Q300 215 240 214 Q180 215 150 270 Z" fill="${hair}"/>`}
    <circle cx="208" cy="295" r="8" fill="#2b2b2b"/><circle cx="272" cy="295" r="8" fill="#2b2b2b"/>
    <path d="M210 340 Q240 365 270 340" stroke="#7a3b2e" stroke-width="6" fill="none" stroke-linecap="round"/>
  </g>
  <text x="444" y="572" font-family="DejaVu Sans, sans-serif" font-size="36" font-weight="700" fill="#ffffff" opacity="0.8" text-anchor="end">${initial}</text>
</svg>`;
}
