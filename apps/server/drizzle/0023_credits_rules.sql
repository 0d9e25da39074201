-- The credits module's rules, as SQL functions other modules' SQL may call (issue #26); PL/pgSQL for
-- its cached plans (see 0019). The credits module stays the only writer of balances and the ledger
-- (decision 015): these are its writes.

-- Serialises one member's keyed changes until the transaction ends (CreditService.lockExpression):
-- a replay at the same moment then sees the first one's ledger row instead of debiting again.
CREATE FUNCTION "credits_lock"(p_user integer) RETURNS void LANGUAGE plpgsql VOLATILE AS $$
begin
  perform pg_advisory_xact_lock(7201004, p_user);
end
$$;
--> statement-breakpoint
-- The member is premium (bought credits once: spec §1).
CREATE FUNCTION "credits_paid"(p_user integer) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
begin
  return coalesce((select "paid_user" from "credit_accounts" where "user_id" = p_user), false);
end
$$;
--> statement-breakpoint
-- The member's balance (0 without a credit account).
CREATE FUNCTION "credits_balance"(p_user integer) RETURNS integer LANGUAGE plpgsql STABLE AS $$
begin
  return coalesce((select "balance" from "credit_accounts" where "user_id" = p_user), 0);
end
$$;
--> statement-breakpoint
-- A keyed debit of `p_cost` (>= 0) credits with its ledger row; the caller holds credits_lock(p_user).
-- A key already in the ledger changes nothing and answers the balance after that change
-- (`replayed_balance`); else the balance after this debit (`new_balance`), or neither when the balance
-- does not cover it. A cost of 0 (a free kind of send) writes a ledger row of 0, making the account.
CREATE FUNCTION "credits_keyed_debit"(p_user integer, p_cost integer, p_reason text, p_key text,
  OUT replayed_balance integer, OUT new_balance integer) LANGUAGE plpgsql VOLATILE AS $$
begin
  select l."balance_after" into replayed_balance from "credit_ledger" l where l."user_id" = p_user and l."key" = p_key;
  if found then return; end if;
  if p_cost < 0 then raise exception 'a debit is >= 0, got %', p_cost; end if;
  if p_cost > 0 then
    update "credit_accounts" a set "balance" = a."balance" - p_cost, "updated_at" = now()
    where a."user_id" = p_user and a."balance" >= p_cost returning a."balance" into new_balance;
    if not found then return; end if;
  else
    insert into "credit_accounts" as a ("user_id", "balance") values (p_user, 0)
    on conflict ("user_id") do update set "updated_at" = now() returning a."balance" into new_balance;
  end if;
  insert into "credit_ledger" ("user_id", "delta", "balance_after", "reason", "key")
  values (p_user, -p_cost, new_balance, p_reason, p_key);
end
$$;
