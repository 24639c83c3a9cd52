# Every sentence the bot says in Amharic (HTML parse mode where tags appear). Variables arrive HTML-escaped.
# Same keys as en.ftl; commands, bank names, account numbers and references stay as they are.

## Joining and membership
outsider =
    ይህ ቦት Birrcheckን ለሚጠቀሙ ድርጅቶች ሠራተኞች ክፍያዎችን ያረጋግጣል።

    ለመቀላቀል ከሥራ አስኪያጅዎ የግብዣ ሊንክ ጠይቀው ይክፈቱት፣ ወይም /start እና የግብዣ ኮዱን ይላኩ።
too-many-attempts = በጣም ብዙ ሙከራዎች። እባክዎ { $seconds } ሰከንድ ጠብቀው እንደገና ይሞክሩ።
invite-unknown = ያ የግብዣ ኮድ ትክክል አይደለም። ከሥራ አስኪያጅዎ አዲስ የግብዣ ሊንክ ይጠይቁ።
invite-used = ያ የግብዣ ኮድ አስቀድሞ ጥቅም ላይ ውሏል። እያንዳንዱ ግብዣ አንድ ጊዜ ብቻ ይሠራል፤ ከሥራ አስኪያጅዎ አዲስ ይጠይቁ።
invite-expired = ያ የግብዣ ኮድ ጊዜው አልፏል። ከሥራ አስኪያጅዎ አዲስ የግብዣ ሊንክ ይጠይቁ።
already-member = እርስዎ አስቀድመው የ{ $branch } አባል ነዎት። ሌላ ቅርንጫፍ ለመቀላቀል መጀመሪያ /leave ይላኩ።
role =
    { $role ->
        [manager] ሥራ አስኪያጅ
        [admin] አስተዳዳሪ
       *[cashier] ገንዘብ ተቀባይ
    }
joined =
    እንኳን ደህና መጡ! የ{ $business } ቅርንጫፍ <b>{ $branch }</b>ን እንደ { role } ተቀላቅለዋል።

    { how-to-verify }
welcome-back =
    እርስዎ የ<b>{ $branch }</b> አባል ነዎት።

    { how-to-verify }
how-to-verify = የደንበኛውን የባንክ SMS ወይም የደረሰኝ ሊንክ ያስተላልፉልኝ፣ የደረሰኙን ፎቶ ወይም PDF ይላኩ፣ ወይም የግብይት ቁጥሩን ይጻፉ። ገንዘቡ በእርግጥ መግባቱን እና ደረሰኙ ከዚህ በፊት ጥቅም ላይ ውሎ እንደሆነ እነግርዎታለሁ።
manager-help =
    የሥራ አስኪያጅ ትዕዛዞች፦
    /history [7d|15d|30d|3m|6m|12m] [ok|failed] — የዚህ ቅርንጫፍ ማረጋገጫዎች
    /accounts — የቅርንጫፉ ገንዘብ መቀበያ ሒሳቦች
    /invite cashier|manager — ለአዲስ አባል የግብዣ ሊንክ
    /settings stale 6h|2d|off — ከዚያ በላይ የቆዩ ክፍያዎችን ይጠቁማል
    /alerts on|off — የቅርንጫፉን እያንዳንዱ ⚠️ ውጤት ይቀበሉ
    /summary HH:MM|off — በየቀኑ የቅርንጫፉ የዕለት ማጠቃለያ
    /export [7d|30d|3m|12m] — የቅርንጫፉ ታሪክ እንደ CSV ፋይል
    /link፣ /unlink — በግሩፕ ውስጥ፦ የቅርንጫፉ ግሩፕ ያድርጉት፣ ወይም ያቋርጡት
common-help =
    /recent — የቅርብ ጊዜ ማረጋገጫዎችዎ
    /banks — ማረጋገጥ የምችላቸው ባንኮች
    /language — እንግሊዝኛ ወይም አማርኛ
    /cancel — የአሁኑን ጥያቄ ያቁሙ
    /leave — ከዚህ ቅርንጫፍ ይውጡ
managers-only = ይህ ትዕዛዝ ለሥራ አስኪያጆች ብቻ ነው።
left = ከ{ $branch } ወጥተዋል። የግብዣ ሊንክ መልሶ ያስገባዎታል።

## Language
language-english = English
language-amharic = አማርኛ
language-question = የቦቱን ቋንቋ ይምረጡ፦
language-chosen = ቦቱ አሁን በአማርኛ ይናገራል።

## Questions
cancelled = ተሰርዟል።
nothing-to-cancel = የሚሰረዝ ነገር የለም።
question-expired = ይህ ጥያቄ ከእንግዲህ ክፍት አይደለም። ደረሰኙን እንደገና ይላኩ።
not-understood = በዚያ ውስጥ ደረሰኝ አላገኘሁም። የባንኩን የደረሰኝ ሊንክ ወይም SMS፣ የደረሰኙን ፎቶ ወይም PDF፣ ወይም የግብይት ቁጥሩን ይላኩ።
unknown-link = ያ ሊንክ የማውቀው ባንክ የደረሰኝ ሊንክ አይደለም። ከባንኩ SMS ወይም መተግበሪያ ያለውን ሊንክ፣ የደረሰኙን ፎቶ ወይም PDF፣ ወይም የግብይት ቁጥሩን ይላኩ። /banks ባንኮቹን ይዘረዝራል።
unknown-reference = ያ የማውቀው የማንኛውም ባንክ የግብይት ቁጥር አይመስልም። /banks የእያንዳንዱ ባንክ ቁጥሮች ምን እንደሚመስሉ ያሳያል።
receipt-without-reference = ⚠️ ይህ የ{ $bank } ደረሰኝ ይመስላል፤ ግን የግብይት ቁጥር ወይም የደረሰኝ ሊንክ ስለሌለው ባንኩን መጠየቅ አይቻልም። ከባንኩ SMS ወይም መተግበሪያ ሊንኩን ይላኩ፣ ወይም የግብይት ቁጥሩን ይጻፉ። ደረሰኙ የሚለው፦
working = በሂደት ላይ…
downloading = ፋይሉን በማውረድ ላይ…
reading = ደረሰኙን በማንበብ ላይ…
receipt-needs-account = የ{ $bank } ደረሰኝ ተነቧል። አንድ ተጨማሪ ነገር፦
checking-with = ከ{ $bank } ጋር በማረጋገጥ ላይ…
bank-slow = ⏳ { $bank } ምላሽ ለመስጠት ዘግይቷል። ለጥቂት ሰከንዶች መሞከሬን እቀጥላለሁ…
choose-bank = <code>{ $reference }</code> የየትኛው ባንክ ነው?
bank-chosen = <code>{ $reference }</code> · { $bank }
choose-account = ገንዘቡን የተቀበለው የትኛው የ{ $bank } ሒሳብ ነው? አንዱን ይምረጡ፣ ወይም የሒሳብ ቁጥሩን ይጻፉ።
type-account = { $bank } ገንዘቡን የተቀበለውን ሒሳብ ይፈልጋል። የሒሳብ ቁጥሩን ይጻፉ።
type-sms-account = { $bank } የባንኩን SMS የተቀበለውን ሰው (ከፋይ ወይም ተቀባይ) የሒሳብ ቁጥር ይፈልጋል። ከዚህ ቅርንጫፍ ሒሳቦች አንዱን ይምረጡ፣ ወይም ይጻፉት።
type-payer-phone = CBE Birr የከፋዩን ስልክ ቁጥር ይፈልጋል። ይጻፉት (09…፣ +251… ወይም 251…)።
not-an-account = የሒሳብ ቁጥሮች አሃዞች ብቻ ናቸው። እንደገና ይጻፉት፣ ወይም /cancel።
not-a-phone = ያ ስልክ ቁጥር አይደለም። የከፋዩን ስልክ ይጻፉ (09…፣ +251… ወይም 251…)፣ ወይም /cancel።

## Failures
file-too-large = ያ ፋይል ከ10 MB በላይ ነው። በምትኩ የደረሰኙን ሊንክ፣ ፎቶ ወይም PDF ይላኩ።
unsupported-file = PDF ደረሰኞችን እና ፎቶዎችን (JPG፣ PNG፣ WEBP) ማንበብ እችላለሁ። ለሌላ ማንኛውም ነገር የደረሰኙን ሊንክ ይላኩ።
download-failed = ያንን ፋይል ከቴሌግራም ማውረድ አልቻልኩም። እባክዎ እንደገና ይላኩት።
unreadable-photo = ያንን ፎቶ ማንበብ አልቻልኩም። የሙሉውን ደረሰኝ ጥርት ያለና ቀጥ ያለ ፎቶ፣ ስክሪንሾት ወይም የደረሰኙን ሊንክ ይላኩ።
ocr-too-slow = ያንን ፎቶ ማንበብ በጣም ረጅም ጊዜ ወሰደ። በምትኩ የደረሰኙን ሊንክ ወይም PDF ይላኩ።
quota-reached = ⛔ ድርጅትዎ የዚህን ወር ማረጋገጫዎች ጨርሷል። ሥራ አስኪያጅዎን ዕቅዱን እንዲያሳድግ ይጠይቁ፤ ምንም አልተረጋገጠም።
bank-down = 🏦 { $bank } አሁን ምላሽ እየሰጠ አይደለም፣ ስለዚህ ምንም አልተረጋገጠም። ከጥቂት ደቂቃዎች በኋላ እንደገና ይሞክሩ።
bank-timed-out = 🏦 { $bank } በጊዜው ምላሽ አልሰጠም፣ ስለዚህ ምንም አልተረጋገጠም፤ ምንም አልተመዘገበም። «እንደገና ሞክር»ን ይጫኑ፣ ወይም ከጥቂት ደቂቃዎች በኋላ ይሞክሩ።
retry-button = 🔄 እንደገና ሞክር
retry-expired = ይህ ማረጋገጫ ጊዜው አልፎበታል። ደረሰኙን እንደገና ይላኩ።
bank-garbled = 🏦 { $bank } ማንበብ የማልችለው ምላሽ ሰጠ፣ ስለዚህ ምንም አልተረጋገጠም። ቆይተው እንደገና ይሞክሩ።
invalid-input = ⚠️ { $message }
internal-error = በእኛ በኩል ችግር ተፈጥሯል። እባክዎ ትንሽ ቆይተው እንደገና ይሞክሩ።

## Result cards
card-confirmed = ✅ <b>ክፍያው ተረጋግጧል</b>
card-not-ours = ⚠️ <b>የተከፈለው የዚህ ቅርንጫፍ ላልሆነ ሒሳብ ነው</b>
card-not-ours-note = ባንኩ ክፍያውን ያረጋግጣል፣ ነገር ግን ወደ { $account } ነው፤ ይህም ከዚህ ቅርንጫፍ የተቀመጡ የ{ $bank } ሒሳቦች አንዱ አይደለም።
card-not-found = ❌ <b>አልተገኘም</b>
card-not-found-note = { $bank } ግብይቱን <code>{ $reference }</code> አያውቀውም።
card-not-found-hint = ቁጥሩን ያረጋግጡ፣ ወይም ደንበኛውን የደረሰኝ ሊንኩን ይጠይቁ።
misread-card = 🔎 <b>ገና አልተረጋገጠም</b>
misread-card-note = በፎቶው ላይ <code>{ $reference }</code> አንብቤያለሁ፣ { $bank } ግን እንዳነበብኩት አያውቀውም። ፎቶ በስህተት ሊነበብ ይችላል።
misread-card-ask = በደረሰኙ ላይ ያለው ቁጥር ይህ ነው?
misread-yes-button = ✅ አዎ፣ ይህ ነው
misread-type-button = ✏️ ልጻፈው
misread-type-prompt = በደረሰኙ ላይ እንደተጻፈው ቁጥሩን፣ ወይም የደረሰኙን ሊንክ ወይም የኤስኤምኤስ ጽሑፉን ይላኩ።
misread-gone = ይህ ማረጋገጫ ከታሪክ ውስጥ የለም። ደረሰኙን እንደገና ይላኩ።
card-duplicate = ⚠️ <b>አስቀድሞ ተረጋግጧል</b>
card-duplicate-note = ይህ ክፍያ { $date } ላይ በ{ verified-by } ተረጋግጧል። ሁለት ጊዜ አይቀበሉት።
card-wrong-account = ⚠️ <b>የተከፈለው ወደ ሌላ ሒሳብ ነው</b>
card-wrong-account-note = ባንኩ እንደሚያሳየው ገንዘቡ የሄደው ወደ { $account } ነው፤ እርስዎ ወደሰጡት ሒሳብ አይደለም።
card-not-completed = ⚠️ <b>አልተጠናቀቀም</b>
card-not-completed-note = ባንኩ የዚህን ግብይት ሁኔታ "{ $status }" ብሎ ይገልጻል፤ አልተጠናቀቀም።
card-mismatch = ⚠️ <b>ሰነዱ እና ባንኩ አይስማሙም</b>
card-mismatch-note = { $message } ከታች ያሉትን የባንኩን አሃዞች ይመኑ እንጂ ሰነዱን አይደለም።
card-due-matches = ✅ መጠኑ ከሚከፈለው { $due } ጋር ይዛመዳል።
card-due-short = ⚠️ <b>{ $by } ጎድሏል</b>፦ የሚከፈለው { $due } ነበር።
card-due-over = ⚠️ <b>{ $by } በልጧል</b>፦ የሚከፈለው { $due } ነበር።
card-amount = መጠን፦ <b>{ $amount }</b>
card-payer = ከፋይ፦ { $payer }
card-receiver = ተቀባይ፦ { $receiver }
card-date = ቀን፦ { $date }
card-reference = ማጣቀሻ፦ <code>{ $reference }</code>
card-bank = ባንክ፦ { $bank }
verified-by = { $label } ({ $via ->
        [telegram] ቴሌግራም
        [test] ሙከራ
       *[api] API
    })

## Invites, history, accounts
invite-usage = /invite cashier ወይም /invite manager ይላኩ።
invite = ለ{ $branch } አዲስ { role } የተዘጋጀ ግብዣ። አንድ ጊዜ ብቻ ይሠራል፤ በ7 ቀናት ውስጥ ጊዜው ያልፋል፦
    { $link }
history-header = <b>ማረጋገጫዎች</b> ({ $filters }) · ገጽ { $page }
history-all-time = ሁሉም ጊዜ
history-ok = የተሳኩ
history-failed = ያልተሳኩ
history-newer = ‹ አዳዲስ
history-older = የቆዩ ›
history-empty = በዚህ ጊዜ ውስጥ ምንም ማረጋገጫ የለም።
recent-header = <b>የቅርብ ጊዜ ማረጋገጫዎችዎ</b>
recent-empty = እስካሁን ምንም አላረጋገጡም።
history-usage = /history ይላኩ፤ ከፈለጉ ከጊዜ ገደብ (7d፣ 15d፣ 30d፣ 3m፣ 6m፣ 12m) እና ok ወይም failed ጋር።
accounts-empty = ይህ ቅርንጫፍ እስካሁን የተቀመጠ ሒሳብ የለውም።
accounts-header = የ<b>{ $branch }</b> ገንዘብ መቀበያ ሒሳቦች፦
account-primary-mark = ★ ዋና
account-make-primary = ★ ዋና አድርግ #{ $number }
account-delete = 🗑 ሰርዝ #{ $number }
account-add = ➕ ሒሳብ ጨምር
account-gone = ያ ሒሳብ ከእንግዲህ የለም።
confirm-delete = { $account } ይሰረዝ?
confirm-delete-yes = አዎ፣ ሰርዝ
confirm-delete-no = አይ
deleted = { $account } ተሰርዟል።
made-primary = { $account } አሁን ለባንኩ ዋና ሒሳብ ነው።
add-bank = አዲሱ ሒሳብ በየትኛው ባንክ ነው?
add-number = የ{ $bank } ሒሳብ ቁጥሩን ይጻፉ።
add-label = ለሒሳቡ መለያ ስም ይጻፉ (ለምሳሌ “ዋና ካዝና”)፣ ወይም ዝለል የሚለውን ይጫኑ።
add-label-skip = ዝለል
add-primary = ለዚህ ባንክ ዋና ሒሳብ ይሁን?
yes = አዎ
no = አይ
label-too-long = መለያ ስም ቢበዛ 100 ቁምፊዎች ነው። አጠር ያለ ይጻፉ፣ ወይም /cancel።
added = { $account } ተቀምጧል።

## Command menu
command-help = ክፍያን እንዴት ማረጋገጥ እንደሚቻል
command-recent = የቅርብ ጊዜ ማረጋገጫዎችዎ
command-banks = ማረጋገጥ የምችላቸው ባንኮች
command-language = እንግሊዝኛ ወይም አማርኛ
command-cancel = የአሁኑን ጥያቄ ያቁሙ
command-leave = ከቅርንጫፍዎ ይውጡ
command-history = የዚህ ቅርንጫፍ ማረጋገጫዎች
command-accounts = የቅርንጫፉ ገንዘብ መቀበያ ሒሳቦች
command-settings = የቅርንጫፉ የቆዩ ክፍያዎች ገደብ
command-alerts = የቅርንጫፉ ⚠️ ውጤቶች ማሳሰቢያ
command-invite = ገንዘብ ተቀባይ ወይም ሥራ አስኪያጅ ይጋብዙ

## /banks: what to send for each bank (translating the descriptions of src/banks/catalogue.ts)
bank-about-cbe = ከCBE መተግበሪያ ወይም SMS የተገኘ የማጋሪያ ሊንክ (https://mbreciept.cbe.com.et/...)፣ ወይም የFT ማጣቀሻው ከተቀባዩ ሒሳብ ቁጥር ጋር (የመጨረሻዎቹ 8 አሃዞች ጥቅም ላይ ይውላሉ)።
bank-about-telebirr = ከtelebirr SMS ወይም ደረሰኝ የተገኘ የግብይት ቁጥር (10 ፊደሎችና አሃዞች)፣ ወይም የደረሰኝ ሊንኩ https://transactioninfo.ethiotelecom.et/receipt/...
bank-about-dashen = ከDashen SuperApp ደረሰኝ ላይ ያለው ባለ 16 ቁምፊ FT Ref (ረጅሙ Transaction Ref አይደለም)፣ ወይም የደረሰኝ ሊንኩ።
bank-about-awash = ከዝውውሩ በኋላ በSMS የተላከው የደረሰኝ ሊንክ (https://awashpay.awashbank.com:8225/-...)፤ የግብይት መለያ ቁጥር ብቻውን ማረጋገጥ አይቻልም።
bank-about-boa = የFT ወይም TT ማጣቀሻው ከSMS ባለቤቱ ሒሳብ ቁጥር ጋር (የመጨረሻዎቹ 5 አሃዞች ጥቅም ላይ ይውላሉ)፣ ወይም የስሊፕ ሊንኩ https://cs.bankofabyssinia.com/slip/?trx=...
bank-about-zemen = የደረሰኝ ማጋሪያ ሊንኩ https://share.zemenbank.com/rt/.../pdf፣ ወይም ባለ 24 ቁምፊ ቶከኑ።
bank-about-cbebirr = የደረሰኝ ቁጥሩ (10 ፊደሎችና አሃዞች) ከከፋዩ ስልክ ቁጥር ጋር በaccount_number (251XXXXXXXXX፤ 09... እና +251... ይቀበላሉ)።
bank-about-mpesa = ከM-Pesa SMS የተገኘ የግብይት ቁጥር (10 ፊደሎችና አሃዞች)፣ ወይም የደረሰኝ ሊንኩ https://m-pesabusiness.safaricom.et/receipt/...
bank-about-sinqee = በSiinqee Bank ደረሰኝ ላይ የታተመው የFT ማጣቀሻ፣ ወይም የደረሰኝ ሊንኩ።
bank-about-amhara = የAmhara Bank ዝውውሩ የFT ማጣቀሻ፣ ወይም የደረሰኝ ሊንኩ https://receipt.amharabank.com.et/?trx=...

## /settings and stale payments
settings-stale-now = ባንኩ ከተረጋገጡበት ከ{ $limit } በፊት የፈጸማቸው ክፍያዎች እንደ ቆዩ ይጠቆማሉ። በ/settings stale 6h፣ 2d ወይም off ይቀይሩት።
settings-stale-off-now = የቆዩ ክፍያዎች አይጠቆሙም። በ/settings stale 24h (ወይም 6h፣ 2d…) ያብሩት።
settings-stale-set = ተከናውኗል፦ ከ{ $limit } በላይ የቆዩ ክፍያዎች ይጠቆማሉ።
settings-stale-off = ተከናውኗል፦ የቆዩ ክፍያዎች አይጠቆሙም።
settings-usage = /settings stale ብለው እንደ 6h፣ 2d ወይም 90m ያለ ገደብ ወይም off ይላኩ።
card-elsewhere = ⚠️ <b>በ{ $branch } ቀድሞ ተረጋግጧል</b> ({ $date })፦ ይህ ደረሰኝ በሌላ የንግድዎ ቅርንጫፍ ተረጋግጧል።
card-stale = ⚠️ <b>የተከፈለው ከ{ $ago } በፊት ነው</b>፤ ይህም ከቅርንጫፉ የ{ $limit } ገደብ ይበልጣል፦ የቆየ ደረሰኝ ሌላ ቦታ ጥቅም ላይ ውሎ ሊሆን ይችላል።
duration-minutes = { $n } ደቂቃ
duration-hours = { $n } ሰዓት
duration-days = { $n } ቀን

## /alerts
alerts-on = ተከናውኗል፦ የዚህ ቅርንጫፍ እያንዳንዱ ⚠️ ውጤት ይላክልዎታል።
alerts-off = ተከናውኗል፦ የዚህ ቅርንጫፍ ማሳሰቢያዎች አይላኩልዎትም።
alerts-usage = /alerts on ወይም /alerts off ይላኩ።
alert-header = 🔔 { $name } ደረሰኝ አረጋግጧል፦
alert-open = በታሪክ ውስጥ ክፈት
entry-failed = ⚠️ <b>አልተረጋገጠም</b>፦ { $message }
entry-checked-by = ያረጋገጠው { verified-by }።
entry-gone = ያ ማረጋገጫ ከአሁን በኋላ በታሪኩ ውስጥ የለም።

## Group chats
group-linked =
    ተከናውኗል፦ ይህ ግሩፕ አሁን የ<b>{ $branch }</b> ግሩፕ ነው። አባላቱ እዚህ የሚልኩት ወይም የሚያስተላልፉት ደረሰኝ እዚሁ ይረጋገጣል፤ ጥያቄዎችና የሥራ አስኪያጅ ትዕዛዞች በግል ውይይት ይቀራሉ።

    የግሩፑን መልዕክቶች ማየት አለብኝ፦ የግላዊነት ሁነታዬን ያጥፉ (@BotFather፣ /setprivacy፣ @{ $bot }፣ Disable) ወይም የዚህ ግሩፕ አስተዳዳሪ ያድርጉኝ።
group-already-linked = ይህ ግሩፕ ቀድሞውንም የ{ $branch } ግሩፕ ነው።
group-taken = ይህ ግሩፕ የሌላ ቅርንጫፍ ({ $branch }) ግሩፕ ነው። እዚያ ያለ ሥራ አስኪያጅ መጀመሪያ /unlink መላክ አለበት።
group-unlinked = ተከናውኗል፦ ይህ ግሩፕ ከአሁን በኋላ የ<b>{ $branch }</b> ግሩፕ አይደለም። እዚህ ለደረሰኞች መልስ አልሰጥም።
group-not-linked = ይህ ግሩፕ የ<b>{ $branch }</b> ግሩፕ አይደለም።
group-private-only = { $command } የሚሠራው ከእኔ ጋር በግል ውይይት ነው፦ <a href="https://t.me/{ $bot }">@{ $bot }</a>
group-ask-in-private = ስለዚህ ደረሰኝ ልጠይቅዎ ያስፈልገኛል፦ በግል ውይይት ይላኩልኝ፣ <a href="https://t.me/{ $bot }">@{ $bot }</a>።
command-link = ይህን ግሩፕ የቅርንጫፉ ግሩፕ ያድርጉ
command-unlink = የዚህን ግሩፕ ከቅርንጫፉ ጋር ያለውን ትስስር ያቋርጡ

## /summary
summary-set = ተከናውኗል፦ በየቀኑ { $time } (በአዲስ አበባ ሰዓት) የቅርንጫፉን የዕለቱን ማጠቃለያ እልክልዎታለሁ።
summary-off = ተከናውኗል፦ የዕለት ማጠቃለያ ከእንግዲህ አይላክም።
summary-now-on = የቅርንጫፉን የዕለት ማጠቃለያ በ{ $time } (በአዲስ አበባ ሰዓት) ያገኛሉ። በ/summary HH:MM ይቀይሩት፣ ወይም በ/summary off ያቁሙት።
summary-now-off = የዕለት ማጠቃለያ አያገኙም። በየቀኑ ለማግኘት /summary 20:00 (በአዲስ አበባ ሰዓት) ይላኩ።
summary-usage = /summary ብለው እንደ 20:00 ያለ ሰዓት (በአዲስ አበባ ሰዓት) ወይም off ይላኩ።
summary-header = 📊 <b>{ $branch }</b>፦ የዕለቱ እስከ { $when }
summary-empty = ዛሬ ምንም ማረጋገጫ የለም።
summary-count =
    { $outcome ->
        [confirmed] ✅ የተረጋገጡ
        [duplicate] ♻️ ቀድሞ ጥቅም ላይ የዋሉ
        [not_found] ❓ ያልተገኙ
        [wrong_account] ⚠️ ወደ ሌላ ሒሳብ የተከፈሉ
        [not_completed] ⚠️ ያልተጠናቀቁ
       *[document_mismatch] ⚠️ ደረሰኙና ባንኩ የማይስማሙባቸው
    }፦ { $n }
summary-totals = የተረጋገጡ በየባንኩ፦
summary-total = { $bank }፦ { $amount } ({ $n })
summary-flagged = ⚠️ የተጠቆሙ ደረሰኞች፦
summary-flag =
    { $outcome ->
        [duplicate] ቀድሞ ጥቅም ላይ ውሏል
        [wrong_account] ወደ ሌላ ሒሳብ ተከፍሏል
        [not_completed] አልተጠናቀቀም
       *[document_mismatch] ደረሰኙና ባንኩ አይስማሙም
    }
summary-flag-stale = ከመረጋገጡ { $ago } በፊት ተከፍሏል
summary-flagged-line = { $time } · { $bank } · { $amount } · <code>{ $reference }</code> · { $who }፦ { $why }
summary-more = … እና ሌሎች { $n }፦ /history 7d failed ይዘረዝራቸዋል።

## /export
export-usage = /export ብለው 7d፣ 30d፣ 3m ወይም 12m ይላኩ።
export-working = ወደ ፋይል በማውጣት ላይ…
export-caption = { $branch }፦ ያለፉት { $period } ማረጋገጫዎች፣ { $n } ረድፎች።
export-empty = በዚያ ጊዜ ውስጥ ምንም ማረጋገጫ የለም።
export-too-large = ፋይሉ ቴሌግራም እንድልክ ከሚፈቅደው (50 MB) ይበልጣል። አጠር ያለ ጊዜ ይምረጡ፣ ወይም የAPIውን GET /api/v1/verifications/export ይጠቀሙ።
command-summary = የቅርንጫፉ የዕለት ማጠቃለያ
command-export = ታሪኩ እንደ CSV ፋይል
