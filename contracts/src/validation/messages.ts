import type { Locale } from '../locales';

/**
 * Validation messages are keys, so the browser can show them in the visitor's
 * language and the API can answer in English (or the request's language) from
 * the same catalogue.
 */
export const VALIDATION_MESSAGE_KEYS = [
  'required',
  'minLength',
  'maxLength',
  'mustBeText',
  'firstNameRequired',
  'lastNameRequired',
  'emailInvalid',
  'serviceRequired',
  'messageMinLength',
  'localeInvalid',
  'sourceInvalid',
  'linkTokenRequired',
  'usernameRequired',
  'passwordRequired',
  'oneOf',
  'urlInvalid',
  'mustBeNumber',
  'mustBeWholeNumber',
  'minValue',
  'maxValue',
  'idInvalid',
  'usernameFormat',
  'currentPasswordWrong',
  'passwordUnchanged',
  'codeRequired',
  'codeInvalid',
  'passwordWrong',
  'unknownVariable',
  'mustBeList',
  'maxItems',
  'languageTwice',
  'timeOfDay',
  'windowDays',
  'windowNoHours',
  'colourInvalid',
  'contentSlotMissing',
  'placeholderInAttribute',
  'placeholderInTag',
  'placeholderInElement',
  'placeholderInMarkup',
  'placeholderMalformed',
  'fallbackNotAllowed',
  'fallbackEmpty',
  'fallbackMarkup',
  'fallbackTooLong',
  'dateInvalid',
  'scheduleInPast',
  'calendarDateInvalid',
  'yearOutOfRange',
  'testRecipientOutside',
  'testRecipientSuppressed',
  'testRecipientUnsubscribed',
  'allowedRecipientInvalid',
  'allowedRecipientTwice',
  'rateAboveCap',
] as const;
export type ValidationMessageKey = (typeof VALIDATION_MESSAGE_KEYS)[number];

/** A message as carried by a schema: its key plus interpolation values. */
// A type alias (not an interface) so it fits yup's `Record<PropertyKey, unknown>` message type.
export type ValidationMessage = {
  key: ValidationMessageKey;
  values?: Record<string, string | number>;
};

export const VALIDATION_MESSAGES: Record<Locale, Record<ValidationMessageKey, string>> = {
  en: {
    required: 'This field is required',
    minLength: 'Must be at least {{count}} characters long',
    maxLength: 'Must be at most {{count}} characters long',
    mustBeText: 'Must be text',
    firstNameRequired: 'First name is required',
    lastNameRequired: 'Last name is required',
    emailInvalid: 'Please enter a valid email address',
    serviceRequired: 'Please select a service',
    messageMinLength: 'Message must be at least 10 characters long',
    localeInvalid: 'Language must be one of en, fr, ar',
    sourceInvalid: 'Unknown subscription form',
    linkTokenRequired: 'The link is incomplete',
    usernameRequired: 'Username is required',
    passwordRequired: 'Password is required',
    oneOf: 'Must be one of {{values}}',
    urlInvalid: 'Please enter a valid URL starting with http:// or https://',
    mustBeNumber: 'Must be a number',
    mustBeWholeNumber: 'Must be a whole number',
    minValue: 'Must be at least {{min}}',
    maxValue: 'Must be at most {{max}}',
    idInvalid: 'Must be a valid id',
    usernameFormat: 'Use letters, digits, dots, dashes or underscores only',
    currentPasswordWrong: 'The current password is not correct',
    passwordUnchanged: 'The new password must differ from the current one',
    codeRequired: 'Enter the code from your authenticator app',
    codeInvalid: 'This code is not valid',
    passwordWrong: 'The password is not correct',
    unknownVariable: 'Unknown variable "{{name}}": use one of {{known}}',
    mustBeList: 'Must be a list',
    maxItems: 'At most {{max}} items',
    languageTwice: 'Each language may appear only once',
    timeOfDay: 'Use a time such as 08:00',
    windowDays: 'Pick at least one day',
    windowNoHours: 'The window has no hours: its end must come after its start',
    colourInvalid: 'Use a colour such as #4f46e5',
    contentSlotMissing: 'The layout must hold {{slot}} where the campaign goes',
    placeholderInAttribute:
      '{{slot}} may only stand in text, not inside the attribute {{attribute}} of <{{tag}}>',
    placeholderInTag: '{{slot}} may only stand in text, not inside the tag <{{tag}}>',
    placeholderInElement: '{{slot}} may only stand in text, not inside <{{tag}}>',
    placeholderInMarkup: '{{slot}} may only stand in text, not inside a comment or declaration',
    placeholderMalformed:
      'A placeholder is not closed, or its fallback holds a brace: write it like {{example}}',
    fallbackNotAllowed: '{{name}} always has a value: only {{allowed}} take a fallback',
    fallbackEmpty: 'Write the fallback of {{name}} after the |, like {{example}}, or remove the |',
    fallbackMarkup: 'The fallback of {{name}} must be plain text, without braces, | or markup',
    fallbackTooLong: 'The fallback of {{name}} must be at most {{max}} characters long',
    dateInvalid: 'Must be a valid date and time',
    scheduleInPast: 'The time must be in the future',
    calendarDateInvalid: 'Must be a date that exists, such as 2030-02-28',
    yearOutOfRange: 'The year must be between {{min}} and {{max}}',
    testRecipientOutside: 'Test mail goes only to staff addresses or to addresses an admin allows',
    testRecipientSuppressed: 'This address is on the suppression list: no mail goes to it',
    testRecipientUnsubscribed: 'This address unsubscribed: no campaign mail goes to it',
    allowedRecipientInvalid: 'Use an e-mail address (name@client.tn) or a domain (@client.tn)',
    allowedRecipientTwice: 'Each address or domain may appear only once',
    rateAboveCap: 'At most {{max}} per minute, the limit for all campaigns',
  },
  fr: {
    required: 'Ce champ est obligatoire',
    minLength: 'Doit contenir au moins {{count}} caractères',
    maxLength: 'Doit contenir au plus {{count}} caractères',
    mustBeText: 'Doit être du texte',
    firstNameRequired: 'Le prénom est obligatoire',
    lastNameRequired: 'Le nom est obligatoire',
    emailInvalid: 'Veuillez saisir une adresse e-mail valide',
    serviceRequired: 'Veuillez sélectionner un service',
    messageMinLength: 'Le message doit contenir au moins 10 caractères',
    localeInvalid: 'La langue doit être en, fr ou ar',
    sourceInvalid: "Formulaire d'inscription inconnu",
    linkTokenRequired: 'Le lien est incomplet',
    usernameRequired: "Le nom d'utilisateur est obligatoire",
    passwordRequired: 'Le mot de passe est obligatoire',
    oneOf: "Doit être l'une des valeurs : {{values}}",
    urlInvalid: 'Veuillez saisir une URL valide commençant par http:// ou https://',
    mustBeNumber: 'Doit être un nombre',
    mustBeWholeNumber: 'Doit être un nombre entier',
    minValue: 'Doit être au moins {{min}}',
    maxValue: 'Doit être au plus {{max}}',
    idInvalid: 'Doit être un identifiant valide',
    usernameFormat: 'Lettres, chiffres, points, tirets ou tirets bas uniquement',
    currentPasswordWrong: "Le mot de passe actuel n'est pas correct",
    passwordUnchanged: "Le nouveau mot de passe doit être différent de l'actuel",
    codeRequired: "Saisissez le code de votre application d'authentification",
    codeInvalid: "Ce code n'est pas valide",
    passwordWrong: "Le mot de passe n'est pas correct",
    unknownVariable: 'Variable inconnue « {{name}} » : utilisez {{known}}',
    mustBeList: 'Doit être une liste',
    maxItems: 'Au plus {{max}} éléments',
    languageTwice: "Chaque langue ne peut figurer qu'une fois",
    timeOfDay: 'Indiquez une heure comme 08:00',
    windowDays: 'Choisissez au moins un jour',
    windowNoHours: "La plage n'a aucune heure : sa fin doit venir après son début",
    colourInvalid: 'Indiquez une couleur comme #4f46e5',
    contentSlotMissing: 'La mise en page doit contenir {{slot}} là où va la campagne',
    placeholderInAttribute:
      "{{slot}} ne peut figurer que dans le texte, pas dans l'attribut {{attribute}} de <{{tag}}>",
    placeholderInTag: '{{slot}} ne peut figurer que dans le texte, pas dans la balise <{{tag}}>',
    placeholderInElement: '{{slot}} ne peut figurer que dans le texte, pas dans <{{tag}}>',
    placeholderInMarkup:
      '{{slot}} ne peut figurer que dans le texte, pas dans un commentaire ou une déclaration',
    placeholderMalformed:
      "Une variable n'est pas fermée, ou son texte de remplacement contient une accolade : écrivez-la comme {{example}}",
    fallbackNotAllowed:
      '{{name}} a toujours une valeur : seules {{allowed}} prennent un texte de remplacement',
    fallbackEmpty:
      'Écrivez le texte de remplacement de {{name}} après le |, comme {{example}}, ou retirez le |',
    fallbackMarkup:
      'Le texte de remplacement de {{name}} doit être du texte simple, sans accolades, | ni balises',
    fallbackTooLong:
      'Le texte de remplacement de {{name}} doit contenir au plus {{max}} caractères',
    dateInvalid: 'Doit être une date et une heure valides',
    scheduleInPast: "L'heure doit être dans le futur",
    calendarDateInvalid: 'Doit être une date qui existe, comme 2030-02-28',
    yearOutOfRange: "L'année doit être comprise entre {{min}} et {{max}}",
    testRecipientOutside:
      "Les envois de test ne vont qu'aux adresses du personnel ou aux adresses autorisées par un administrateur",
    testRecipientSuppressed:
      'Cette adresse est sur la liste de suppression : aucun e-mail ne lui est envoyé',
    testRecipientUnsubscribed:
      "Cette adresse s'est désabonnée : aucun e-mail de campagne ne lui est envoyé",
    allowedRecipientInvalid:
      'Indiquez une adresse e-mail (nom@client.tn) ou un domaine (@client.tn)',
    allowedRecipientTwice: "Chaque adresse ou domaine ne peut figurer qu'une fois",
    rateAboveCap: 'Au plus {{max}} par minute, la limite de toutes les campagnes',
  },
  ar: {
    required: 'هذا الحقل مطلوب',
    minLength: 'يجب أن يحتوي على {{count}} أحرف على الأقل',
    maxLength: 'يجب ألا يتجاوز {{count}} حرفًا',
    mustBeText: 'يجب أن يكون نصًا',
    firstNameRequired: 'الاسم الأول مطلوب',
    lastNameRequired: 'اسم العائلة مطلوب',
    emailInvalid: 'يرجى إدخال عنوان بريد إلكتروني صالح',
    serviceRequired: 'يرجى اختيار خدمة',
    messageMinLength: 'يجب أن تتكون الرسالة من 10 أحرف على الأقل',
    localeInvalid: 'يجب أن تكون اللغة en أو fr أو ar',
    sourceInvalid: 'نموذج اشتراك غير معروف',
    linkTokenRequired: 'الرابط غير مكتمل',
    usernameRequired: 'اسم المستخدم مطلوب',
    passwordRequired: 'كلمة المرور مطلوبة',
    oneOf: 'يجب أن تكون إحدى القيم: {{values}}',
    urlInvalid: 'يرجى إدخال رابط صالح يبدأ بـ http:// أو https://',
    mustBeNumber: 'يجب أن يكون رقمًا',
    mustBeWholeNumber: 'يجب أن يكون عددًا صحيحًا',
    minValue: 'يجب ألا يقل عن {{min}}',
    maxValue: 'يجب ألا يزيد عن {{max}}',
    idInvalid: 'يجب أن يكون معرّفًا صالحًا',
    usernameFormat: 'أحرف وأرقام ونقاط وشرطات وشرطات سفلية فقط',
    currentPasswordWrong: 'كلمة المرور الحالية غير صحيحة',
    passwordUnchanged: 'يجب أن تختلف كلمة المرور الجديدة عن الحالية',
    codeRequired: 'أدخل الرمز من تطبيق المصادقة',
    codeInvalid: 'هذا الرمز غير صالح',
    passwordWrong: 'كلمة المرور غير صحيحة',
    unknownVariable: 'متغير غير معروف "{{name}}": استخدم أحد {{known}}',
    mustBeList: 'يجب أن تكون قائمة',
    maxItems: '{{max}} عناصر على الأكثر',
    languageTwice: 'لا يمكن أن تظهر كل لغة إلا مرة واحدة',
    timeOfDay: 'استخدم وقتًا مثل 08:00',
    windowDays: 'اختر يومًا واحدًا على الأقل',
    windowNoHours: 'النافذة بلا ساعات: يجب أن تأتي نهايتها بعد بدايتها',
    colourInvalid: 'استخدم لونًا مثل #4f46e5',
    contentSlotMissing: 'يجب أن يحتوي التخطيط على {{slot}} حيث توضع الحملة',
    placeholderInAttribute:
      'لا يوضع {{slot}} إلا في النص، لا داخل السمة {{attribute}} في <{{tag}}>',
    placeholderInTag: 'لا يوضع {{slot}} إلا في النص، لا داخل الوسم <{{tag}}>',
    placeholderInElement: 'لا يوضع {{slot}} إلا في النص، لا داخل <{{tag}}>',
    placeholderInMarkup: 'لا يوضع {{slot}} إلا في النص، لا داخل تعليق أو تصريح',
    placeholderMalformed:
      'متغير غير مغلق، أو نصه البديل يحتوي على قوس معقوف: اكتبه هكذا {{example}}',
    fallbackNotAllowed: 'للمتغير {{name}} قيمة دائمًا: وحدها {{allowed}} تقبل نصًا بديلًا',
    fallbackEmpty: 'اكتب النص البديل للمتغير {{name}} بعد |، مثل {{example}}، أو احذف |',
    fallbackMarkup:
      'يجب أن يكون النص البديل للمتغير {{name}} نصًا عاديًا، بلا أقواس معقوفة ولا | ولا وسوم',
    fallbackTooLong: 'يجب ألا يتجاوز النص البديل للمتغير {{name}} {{max}} حرفًا',
    dateInvalid: 'يجب أن يكون تاريخًا ووقتًا صالحين',
    scheduleInPast: 'يجب أن يكون الوقت في المستقبل',
    calendarDateInvalid: 'يجب أن يكون تاريخًا موجودًا، مثل 2030-02-28',
    yearOutOfRange: 'يجب أن تكون السنة بين {{min}} و{{max}}',
    testRecipientOutside:
      'لا يُرسل بريد الاختبار إلا إلى عناوين الموظفين أو العناوين التي يسمح بها مسؤول',
    testRecipientSuppressed: 'هذا العنوان في قائمة الحظر: لا يُرسل إليه أي بريد',
    testRecipientUnsubscribed: 'ألغى هذا العنوان اشتراكه: لا يُرسل إليه بريد الحملات',
    allowedRecipientInvalid: 'استخدم عنوان بريد إلكتروني (name@client.tn) أو نطاقًا (@client.tn)',
    allowedRecipientTwice: 'لا يمكن أن يظهر كل عنوان أو نطاق إلا مرة واحدة',
    rateAboveCap: '{{max}} في الدقيقة على الأكثر، وهو حد جميع الحملات',
  },
};

/** Renders a schema message in one language, filling `{{name}}` placeholders. */
export function formatValidationMessage(message: ValidationMessage, locale: Locale): string {
  const template = VALIDATION_MESSAGES[locale][message.key];
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    String(message.values?.[name] ?? whole),
  );
}

/** Yup stores whatever a schema gives as message; ours are always ValidationMessage. */
export function isValidationMessage(value: unknown): value is ValidationMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    'key' in value &&
    (VALIDATION_MESSAGE_KEYS as readonly unknown[]).includes((value as { key: unknown }).key)
  );
}
