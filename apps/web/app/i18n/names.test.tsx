import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { nameValues } from "@app/contract";
import { render, screen } from "@testing-library/react";
import { createIntl, IntlProvider } from "react-intl";
import { describe, expect, it } from "vitest";
import { BlockActions } from "../features/blocks/block-actions";
import { DeleteChatModal } from "../features/chat/delete-chat-modal";
import fr from "./locales/fr.json";
import pl from "./locales/pl.json";
import { messagesFor } from "./messages.server";

/** Message `id` in `locale` with `values`, formatted as the app formats it (precompiled catalogue). */
function format(locale: "fr" | "pl", id: string, values: Record<string, string | number>): string {
  return createIntl({ locale, defaultLocale: "en", messages: messagesFor(locale) }).formatMessage({ id }, values);
}

describe("a member's name inside a French sentence (issue #29)", () => {
  it("elides 'de' and 'que' before a vowel and keeps them before a consonant", () => {
    expect(format("fr", "member.about", nameValues("Anna"))).toBe("À propos d'Anna");
    expect(format("fr", "member.about", nameValues("Émile"))).toBe("À propos d'Émile");
    expect(format("fr", "member.about", nameValues("Marc"))).toBe("À propos de Marc");
    expect(format("fr", "likes.login", nameValues("Anna"))).toBe("Connectez-vous pour liker le profil d'Anna");
    expect(format("fr", "likes.login", nameValues("Marc"))).toBe("Connectez-vous pour liker le profil de Marc");
    expect(format("fr", "chat.awaiting_me", nameValues("Émile"))).toBe(
      "Confirmez votre adresse e-mail (avec le lien que nous vous avons envoyé) pour qu'Émile puisse vous répondre.",
    );
    expect(format("fr", "email.notify.new_messages.subject", { ...nameValues("Anna"), count: 2 })).toBe(
      "2 nouveaux messages d'Anna",
    );
    expect(format("fr", "staff.moderation.select", { kind: "Photo", ...nameValues("Marc") })).toBe(
      "Sélectionner : Photo de Marc",
    );
  });

  it("is elided on the screen, where the call site passes the name with its elision", () => {
    render(
      <IntlProvider locale="fr" messages={fr}>
        <DeleteChatModal name="Émile" show onCancel={() => {}} onConfirm={() => {}} onExited={() => {}} />
      </IntlProvider>,
    );
    expect(screen.getByRole("dialog")).toHaveTextContent("Un nouveau message d'Émile la fera revenir.");
  });

  it("has its elision passed wherever a French message asks for one (a missing value breaks the message)", () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
    const sources = ["web/app", "server/src"].flatMap((dir) =>
      (readdirSync(path.join(root, dir), { recursive: true }) as string[])
        .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
        .map((file) => readFileSync(path.join(root, dir, file), "utf8")),
    );
    const eliding = Object.entries(fr as Record<string, string>).filter(([, message]) => message.includes("{elide,"));
    expect(eliding.length).toBeGreaterThan(20);
    for (const [id] of eliding) {
      // Ids built at run time: `staff.reports.report_of_${type}`, `email.notify.${template}.${part}`.
      const named = id.replace(/^(staff\.reports\.report_of_)\w+$/, "$1").replace(/^email\.notify\.\w+\.\w+$/, "email.notify.");
      const users = sources.filter((source) => source.includes(`"${named}`) || source.includes(`\`${named}`));
      expect(users.length, id).toBeGreaterThan(0);
      for (const source of users) expect(source, id).toContain("nameValues(");
    }
  });
});

describe("a member's name inside a Polish sentence stands in the nominative (issue #29)", () => {
  // Polish declines names after prepositions and verbs (do Anny, z Anną, polub Annę); a name the code
  // cannot decline only reads right as the subject or in apposition.
  it.each([
    ["member.action_message", "Napisz wiadomość – Anna ją przeczyta"],
    ["member.action_gift", "Wyślij prezent – Anna się ucieszy"],
    ["chat.title_with", "Anna – czat"],
    ["chat.empty", "Brak wiadomości. Zrób pierwszy krok i przywitaj się – Anna na pewno to doceni!"],
    ["chat.delete_text", "Ta rozmowa zniknie z Twoich wiadomości. Wróci, jeśli Anna znów do Ciebie napisze."],
    ["memberLanding.lead_nearby", "Amoria pokazuje singli z Twojej okolicy. Anna jest wśród nich: przywitaj się."],
    ["push.message.title", "Anna pisze do Ciebie"],
    ["live.match", "To dopasowanie: Ty i Anna lubicie się nawzajem!"],
    ["report.title_message", "Zgłoś tę wiadomość (Anna)"],
  ])("%s", (id, sentence) => {
    expect(format("pl", id, { ...nameValues("Anna"), site: "Amoria" })).toBe(sentence);
  });

  it("puts a gendered noun before the name where the gender is known", () => {
    render(
      <IntlProvider locale="pl" messages={pl}>
        <BlockActions profile={{ id: 9, name: "Anna", gender: "female" }} blocked={false} />
        <BlockActions profile={{ id: 10, name: "Tomek", gender: "male" }} blocked={false} />
      </IntlProvider>,
    );
    expect(screen.getByRole("button", { name: "Zablokuj użytkowniczkę Anna" })).toBeVisible();
    expect(screen.getByRole("button", { name: "Zablokuj użytkownika Tomek" })).toBeVisible();
  });

  it("names the sender of an e-mail's unread messages in the nominative", () => {
    expect(format("pl", "email.notify.new_messages.subject", { ...nameValues("Tomek"), count: 5 })).toBe(
      "Tomek: 5 nowych wiadomości",
    );
    expect(format("pl", "email.notify.new_conversation.body", { ...nameValues("Tomek"), count: 2 })).toBe(
      "Masz 2 nieprzeczytane wiadomości – Tomek czeka na odpowiedź.",
    );
  });
});

describe("an age after a name in Polish", () => {
  it("takes the plural form of the number (22 lata, 25 lat, 21 lat)", () => {
    expect(format("pl", "lander.video.caption", { name: "Anna", age: 22 })).toBe("Anna, 22 lata");
    expect(format("pl", "lander.video.caption", { name: "Anna", age: 25 })).toBe("Anna, 25 lat");
    expect(format("pl", "lander.video.caption", { name: "Anna", age: 21 })).toBe("Anna, 21 lat");
  });
});
