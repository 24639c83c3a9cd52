# Every sentence the bot says in English (HTML parse mode where tags appear). Variables arrive HTML-escaped.
# The Amharic file (am.ftl) has the same keys; test/bot/i18n.test.ts fails on a key missing from either.

## Joining and membership
outsider =
    This bot checks payments for the staff of businesses that use Birrcheck.

    To join, ask your manager for an invite link and open it, or send /start followed by the invite code.
too-many-attempts = Too many attempts. Please wait { $seconds } seconds and try again.
invite-unknown = That invite code is not valid. Ask your manager for a new invite link.
invite-used = That invite code was already used. Each invite works once: ask your manager for a new one.
invite-expired = That invite code has expired. Ask your manager for a new invite link.
already-member = You are already a member of { $branch }. To join another branch, send /leave first.
role =
    { $role ->
        [manager] manager
        [admin] admin
       *[cashier] cashier
    }
joined =
    Welcome! You joined <b>{ $branch }</b> of { $business } as { role }.

    { how-to-verify }
welcome-back =
    You are a member of <b>{ $branch }</b>.

    { how-to-verify }
how-to-verify = Forward me the customer's bank SMS or receipt link, send a photo or the PDF of the receipt, or type the transaction number. I will tell you if the money really arrived and whether the receipt was already used.
manager-help =
    Manager commands:
    /history [7d|15d|30d|3m|6m|12m] [ok|failed] — this branch's verifications
    /accounts — the branch's receiving accounts
    /invite cashier|manager — an invite link for a new member
    /settings stale 6h|2d|off — flag payments older than that
    /alerts on|off — get every ⚠️ outcome of the branch
    /summary HH:MM|off — a summary of the branch's day, every day
    /export [7d|30d|3m|12m] — the branch's history as a CSV file
    /link, /unlink — in a group: make it the branch's group, or end that
common-help =
    /recent — your latest verifications
    /banks — the banks I can check
    /language — English or Amharic
    /cancel — stop the current question
    /leave — leave this branch
managers-only = This command is for managers.
left = You left { $branch }. An invite link brings you back.

## Language
language-english = English
language-amharic = አማርኛ
language-question = Choose the bot's language:
language-chosen = The bot now speaks English.

## Questions
cancelled = Cancelled.
nothing-to-cancel = There is nothing to cancel.
question-expired = This question is no longer open. Send the receipt again.
not-understood = I did not find a receipt in that. Send the bank's receipt link or SMS, a photo or PDF of the receipt, or the transaction number.
unknown-link = That link is not a receipt link of a bank I know. Send the link from the bank's SMS or app, a photo or PDF of the receipt, or the transaction number. /banks lists the banks.
unknown-reference = That does not look like a transaction number of any bank I know. /banks shows what each bank's numbers look like.
receipt-without-reference = ⚠️ This looks like a { $bank } receipt, but it shows no transaction number or receipt link, so the bank cannot be asked about it. Send the link from the bank's SMS or app, or type the transaction number. What it says:
working = Working on it…
downloading = Downloading the file…
reading = Reading the receipt…
receipt-needs-account = { $bank } receipt read. One more thing:
checking-with = Checking with { $bank }…
bank-slow = ⏳ { $bank } is slow to answer. I keep trying for a few more seconds…
choose-bank = Which bank is <code>{ $reference }</code> from?
bank-chosen = <code>{ $reference }</code> · { $bank }
choose-account = Which { $bank } account received the money? Choose one, or type the account number.
type-account = { $bank } needs the account that received the money. Type the account number.
type-sms-account = { $bank } needs the account number of whoever got the bank's SMS (payer or receiver). Choose one of this branch's accounts, or type it.
type-payer-phone = CBE Birr needs the payer's phone number. Type it (09…, +251… or 251…).
not-an-account = Account numbers are digits only. Type it again, or /cancel.
not-a-phone = That is not a phone number. Type the payer's phone (09…, +251… or 251…), or /cancel.

## Failures
file-too-large = That file is over 10 MB. Send the receipt link, a photo or the PDF of the receipt instead.
unsupported-file = I can read PDF receipts and photos (JPG, PNG, WEBP). For anything else, send the receipt link.
download-failed = I could not download that file from Telegram. Please send it again.
unreadable-photo = I could not read that photo. Send a sharp, straight photo of the whole receipt, a screenshot, or the receipt link.
ocr-too-slow = Reading that photo took too long. Send the receipt link or the PDF instead.
quota-reached = ⛔ Your business has used this month's verifications. Ask your manager to upgrade the plan; nothing was checked.
bank-down = 🏦 { $bank } is not answering right now, so nothing was checked. Try again in a few minutes.
bank-timed-out = 🏦 { $bank } did not answer in time, so nothing was checked or recorded. Press Try again, or try again in a few minutes.
retry-button = 🔄 Try again
retry-expired = This check has expired. Forward the receipt again.
bank-garbled = 🏦 { $bank } answered with something I could not read, so nothing was confirmed. Try again later.
invalid-input = ⚠️ { $message }
internal-error = Something went wrong on our side. Please try again in a moment.

## Result cards
card-confirmed = ✅ <b>Payment confirmed</b>
card-not-ours = ⚠️ <b>Paid to an account that is not this branch's</b>
card-not-ours-note = The bank confirms the payment, but to { $account }, which is not one of this branch's saved { $bank } accounts.
card-not-found = ❌ <b>Not found</b>
card-not-found-note = { $bank } does not know the transaction <code>{ $reference }</code>.
card-not-found-hint = Check the number, or ask the customer for the receipt link.
misread-card = 🔎 <b>Not confirmed yet</b>
misread-card-note = I read <code>{ $reference }</code> on the photo, and { $bank } does not know it as I read it. A photo can be misread.
misread-card-ask = Is that the reference on the receipt?
misread-yes-button = ✅ Yes, that's it
misread-type-button = ✏️ Type it
misread-type-prompt = Send the reference as printed on the receipt, or the receipt link or the SMS text.
misread-gone = This verification is no longer in the history. Send the receipt again.
card-duplicate = ⚠️ <b>Already verified</b>
card-duplicate-note = This payment was verified on { $date } by { verified-by }. Do not accept it twice.
card-wrong-account = ⚠️ <b>Paid to another account</b>
card-wrong-account-note = The bank shows the money went to { $account }, not to the account you gave.
card-not-completed = ⚠️ <b>Not completed</b>
card-not-completed-note = The bank reports this transaction as "{ $status }", not completed.
card-mismatch = ⚠️ <b>The document and the bank disagree</b>
card-mismatch-note = { $message } Trust the bank's figures below, not the document.
card-due-matches = ✅ Amount matches the { $due } due.
card-due-short = ⚠️ <b>Short by { $by }</b>: { $due } was due.
card-due-over = ⚠️ <b>Over by { $by }</b>: { $due } was due.
card-amount = Amount: <b>{ $amount }</b>
card-payer = Payer: { $payer }
card-receiver = Receiver: { $receiver }
card-date = Date: { $date }
card-reference = Reference: <code>{ $reference }</code>
card-bank = Bank: { $bank }
verified-by = { $label } ({ $via ->
        [telegram] Telegram
        [test] sandbox
       *[api] API
    })

## Invites, history, accounts
invite-usage = Send /invite cashier or /invite manager.
invite = Invite for a new { role } of { $branch }. It works once and expires in 7 days:
    { $link }
history-header = <b>Verifications</b> ({ $filters }) · page { $page }
history-all-time = all time
history-ok = ok
history-failed = failed
history-newer = ‹ Newer
history-older = Older ›
history-empty = No verifications in this period.
recent-header = <b>Your latest verifications</b>
recent-empty = You have not verified anything yet.
history-usage = Send /history, optionally with a period (7d, 15d, 30d, 3m, 6m, 12m) and ok or failed.
accounts-empty = This branch has no saved accounts yet.
accounts-header = Receiving accounts of <b>{ $branch }</b>:
account-primary-mark = ★ primary
account-make-primary = ★ Primary #{ $number }
account-delete = 🗑 Delete #{ $number }
account-add = ➕ Add an account
account-gone = That account no longer exists.
confirm-delete = Delete { $account }?
confirm-delete-yes = Yes, delete
confirm-delete-no = No
deleted = Deleted { $account }.
made-primary = { $account } is now the primary account for its bank.
add-bank = Which bank is the new account at?
add-number = Type the { $bank } account number.
add-label = Type a label for it (for example “Main till”), or press Skip.
add-label-skip = Skip
add-primary = Make it the primary account for this bank?
yes = Yes
no = No
label-too-long = A label is at most 100 characters. Type a shorter one, or /cancel.
added = Saved { $account }.

## Command menu
command-help = How to check a payment
command-recent = Your latest verifications
command-banks = The banks I can check
command-language = English or Amharic
command-cancel = Stop the current question
command-leave = Leave your branch
command-history = This branch's verifications
command-accounts = The branch's receiving accounts
command-settings = Stale-payment limit of this branch
command-alerts = Alerts of this branch's ⚠️ outcomes
command-invite = Invite a cashier or manager

## /banks: what to send for each bank. In English these are the API's catalogue descriptions
## (src/banks/catalogue.ts), written there once: bot/i18n.ts adds bank-about-<code> from them.

## /settings and stale payments
settings-stale-now = Payments the bank made more than { $limit } before they are checked are flagged as stale. Change it with /settings stale 6h, 2d or off.
settings-stale-off-now = Stale payments are not flagged. Turn it on with /settings stale 24h (or 6h, 2d…).
settings-stale-set = Done: payments older than { $limit } will be flagged as stale.
settings-stale-off = Done: stale payments will not be flagged.
settings-usage = Send /settings stale followed by a limit such as 6h, 2d or 90m, or off.
card-elsewhere = ⚠️ <b>Already checked at { $branch }</b> on { $date }: this receipt was confirmed at another branch of your business.
card-stale = ⚠️ <b>Paid { $ago } ago</b>, longer ago than this branch's limit of { $limit }: an old receipt may already have been used elsewhere.
duration-minutes = { $n ->
    [one] 1 minute
   *[other] { $n } minutes
}
duration-hours = { $n ->
    [one] 1 hour
   *[other] { $n } hours
}
duration-days = { $n ->
    [one] 1 day
   *[other] { $n } days
}

## /alerts
alerts-on = Done: every ⚠️ outcome of this branch will be sent to you.
alerts-off = Done: you will not get this branch's alerts.
alerts-usage = Send /alerts on or /alerts off.
alert-header = 🔔 { $name } checked a receipt:
alert-open = Open in history
entry-failed = ⚠️ <b>Not confirmed</b>: { $message }
entry-checked-by = Checked by { verified-by }.
entry-gone = That verification is no longer in the history.

## Group chats
group-linked =
    Done: this group is now the group of <b>{ $branch }</b>. Receipts its members post or forward here are checked and answered here; questions and manager commands stay in a private chat with me.

    I must see the group's messages: turn my privacy mode off (@BotFather, /setprivacy, @{ $bot }, Disable) or make me an admin of this group.
group-already-linked = This group is already the group of { $branch }.
group-taken = This group is the group of another branch ({ $branch }). A manager there must send /unlink first.
group-unlinked = Done: this group is no longer the group of <b>{ $branch }</b>. I will not answer receipts here.
group-not-linked = This group is not the group of <b>{ $branch }</b>.
group-private-only = { $command } works in a private chat with me: <a href="https://t.me/{ $bot }">@{ $bot }</a>
group-ask-in-private = I need to ask you about this receipt: send it to me in a private chat, <a href="https://t.me/{ $bot }">@{ $bot }</a>.
command-link = Make this group the branch's group
command-unlink = End this group's link to the branch

## /summary
summary-set = Done: every day at { $time } (Addis Ababa time) I will send you the branch's summary of the day.
summary-off = Done: no more daily summaries.
summary-now-on = You get the branch's daily summary at { $time } (Addis Ababa time). Change it with /summary HH:MM, or stop it with /summary off.
summary-now-off = You get no daily summary. Send /summary 20:00 (Addis Ababa time) to get one every day.
summary-usage = Send /summary followed by a time such as 20:00 (Addis Ababa time), or off.
summary-header = 📊 <b>{ $branch }</b>: the day until { $when }
summary-empty = No verifications today.
summary-count =
    { $outcome ->
        [confirmed] ✅ Confirmed
        [duplicate] ♻️ Already used
        [not_found] ❓ Not found
        [wrong_account] ⚠️ Paid to another account
        [not_completed] ⚠️ Not completed
       *[document_mismatch] ⚠️ Receipt and bank disagree
    }: { $n }
summary-totals = Confirmed per bank:
summary-total = { $bank }: { $amount } ({ $n })
summary-flagged = ⚠️ Flagged receipts:
summary-flag =
    { $outcome ->
        [duplicate] already used
        [wrong_account] paid to another account
        [not_completed] not completed
       *[document_mismatch] receipt and bank disagree
    }
summary-flag-stale = paid { $ago } before it was checked
summary-flagged-line = { $time } · { $bank } · { $amount } · <code>{ $reference }</code> · { $who }: { $why }
summary-more = … and { $n } more: /history 7d failed lists them.

## /export
export-usage = Send /export followed by 7d, 30d, 3m or 12m.
export-working = Preparing the export…
export-caption = { $branch }: verifications of the last { $period }, { $n } rows.
export-empty = There are no verifications in that period.
export-too-large = The export is larger than Telegram lets me send (50 MB). Choose a shorter period, or use the API's GET /api/v1/verifications/export.
command-summary = Daily summary of the branch
command-export = History as a CSV file
