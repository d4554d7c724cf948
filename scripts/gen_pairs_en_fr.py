#!/usr/bin/python3
"""Writes web/public/data/pairs-en-fr.tsv: short English→French sentence pairs generated from a
grammar written for this project (no sentence is taken from Tatoeba or any other corpus).

The page's Translation view trains on it by default and the course loads it too. Same format as
the files users bring: one pair per line, `English<TAB>French`. An English sentence whose French
is ambiguous ("you" = tu / vous, "they" = ils / elles, "I am tired" = fatigué / fatiguée, a
question asked three ways) has one line per translation: the engine's split by source sentence
keeps them together and BLEU uses them all as references.

What the grammar covers (docs/translation-corpus.md has the full list):
  - subjects: personal pronouns and noun phrases (my brother, the children, Marie ...)
  - present tense of 17 verbs, regular and irregular, conjugated for every person
  - negation ne ... pas with elision (he doesn't like apples → il n'aime pas les pommes), and
    "pas de" after a negated partitive or indefinite (je ne mange pas de pain, pas d'oranges)
  - articles with elision and contraction (l'école, l'hôtel, au marché, aux États-Unis,
    du pain, de l'eau), demonstratives (ce, cet, cette, ces)
  - adjective agreement in gender and number, before or after the noun (une petite maison,
    une voiture rouge, un nouvel ordinateur, une vieille voiture)
  - être + adjective, avoir + faim / soif / froid / chaud / peur, aller à + place,
    vouloir + infinitive
  - yes/no questions three ways: est-ce que (with qu' before a vowel), inversion (aime-t-il ?)
    and intonation; "where is" questions
  - compound sentences: two or three statements joined by "and" / "but" (et / mais), so that
    BLEU by source length has long sentences to measure

Deterministic: the same script writes the same file (Python's random with a fixed seed).
Usage: /usr/bin/python3 scripts/gen_pairs_en_fr.py           (rewrites the file)
       /usr/bin/python3 scripts/gen_pairs_en_fr.py --check   (exit 1 when the file differs)
"""
import os
import random
import sys

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "web", "public", "data", "pairs-en-fr.tsv")
TARGET_SOURCES = 2300  # distinct simple English sentences (lines are more: several references for some)
TWO_CLAUSES = 300  # compound sentences of two statements ("…, but …"), 8–16 words
THREE_CLAUSES = 100  # and of three, 12–24 words
MAX_REFERENCES = 3
SEED = 20261126

VOWELS = "aeiouâàéèêëîïôûùœy"
H_MUET = ("habite", "habitons", "habitez", "habitent", "habites", "hôtel", "hôpital", "homme", "hommes", "heure", "heureux", "heureuse", "heureuses")


def starts_with_vowel(word):
    w = word.lower()
    return w[0] in VOWELS or w.startswith(H_MUET)


def join_fr(words):
    """Joins French words, applying elision: je ne le la de que me te se → j' n' l' d' qu' ... before a vowel
    or a mute h."""
    out = []
    elide = {"je": "j'", "ne": "n'", "le": "l'", "la": "l'", "de": "d'", "que": "qu'", "me": "m'", "te": "t'", "se": "s'"}
    for i, w in enumerate(words):
        if w.lower() in elide and i + 1 < len(words) and starts_with_vowel(words[i + 1]) and words[i + 1][0] != "-":
            e = elide[w.lower()]
            out.append((e[0].upper() + e[1:] if w[0].isupper() else e) + "\u0000")
        else:
            out.append(w)
    text = ""
    for w in out:
        if text.endswith("\u0000"):
            text = text[:-1] + w
        elif w.startswith("-"):
            text += w
        else:
            text += (" " if text else "") + w
    return text


def cap(s):
    return s[0].upper() + s[1:]


# ---- Nouns: English singular, English plural, French singular, French plural, gender ----
NOUNS = {
    "apple": ("apple", "apples", "pomme", "pommes", "f"),
    "orange": ("orange", "oranges", "orange", "oranges", "f"),
    "car": ("car", "cars", "voiture", "voitures", "f"),
    "house": ("house", "houses", "maison", "maisons", "f"),
    "tree": ("tree", "trees", "arbre", "arbres", "m"),
    "school": ("school", "schools", "école", "écoles", "f"),
    "book": ("book", "books", "livre", "livres", "m"),
    "dog": ("dog", "dogs", "chien", "chiens", "m"),
    "cat": ("cat", "cats", "chat", "chats", "m"),
    "bird": ("bird", "birds", "oiseau", "oiseaux", "m"),
    "hotel": ("hotel", "hotels", "hôtel", "hôtels", "m"),
    "city": ("city", "cities", "ville", "villes", "f"),
    "door": ("door", "doors", "porte", "portes", "f"),
    "window": ("window", "windows", "fenêtre", "fenêtres", "f"),
    "room": ("room", "rooms", "chambre", "chambres", "f"),
    "computer": ("computer", "computers", "ordinateur", "ordinateurs", "m"),
    "bike": ("bike", "bikes", "vélo", "vélos", "m"),
    "garden": ("garden", "gardens", "jardin", "jardins", "m"),
    "film": ("film", "films", "film", "films", "m"),
    "song": ("song", "songs", "chanson", "chansons", "f"),
    "letter": ("letter", "letters", "lettre", "lettres", "f"),
    "table": ("table", "tables", "table", "tables", "f"),
    "chair": ("chair", "chairs", "chaise", "chaises", "f"),
    "shirt": ("shirt", "shirts", "chemise", "chemises", "f"),
    "hat": ("hat", "hats", "chapeau", "chapeaux", "m"),
    "street": ("street", "streets", "rue", "rues", "f"),
    "train": ("train", "trains", "train", "trains", "m"),
    "bag": ("bag", "bags", "sac", "sacs", "m"),
    "key": ("key", "keys", "clé", "clés", "f"),
    "flower": ("flower", "flowers", "fleur", "fleurs", "f"),
    "shoe": ("shoe", "shoes", "chaussure", "chaussures", "f"),
    "question": ("question", "questions", "question", "questions", "f"),
    "problem": ("problem", "problems", "problème", "problèmes", "m"),
    "idea": ("idea", "ideas", "idée", "idées", "f"),
    "man": ("man", "men", "homme", "hommes", "m"),
    "woman": ("woman", "women", "femme", "femmes", "f"),
    "child": ("child", "children", "enfant", "enfants", "m"),
    "boy": ("boy", "boys", "garçon", "garçons", "m"),
    "girl": ("girl", "girls", "fille", "filles", "f"),
    "newspaper": ("newspaper", "newspapers", "journal", "journaux", "m"),
    "bus": ("bus", "buses", "bus", "bus", "m"),
    "river": ("river", "rivers", "rivière", "rivières", "f"),
    "mountain": ("mountain", "mountains", "montagne", "montagnes", "f"),
    "phone": ("phone", "phones", "téléphone", "téléphones", "m"),
    "picture": ("picture", "pictures", "photo", "photos", "f"),
    "station": ("station", "stations", "gare", "gares", "f"),
}

PEOPLE = ("man", "woman", "child", "boy", "girl")

# Mass nouns (partitive): English, French, gender
MASS = {
    "bread": ("bread", "pain", "m"),
    "water": ("water", "eau", "f"),
    "soup": ("soup", "soupe", "f"),
    "coffee": ("coffee", "café", "m"),
    "tea": ("tea", "thé", "m"),
    "milk": ("milk", "lait", "m"),
    "rice": ("rice", "riz", "m"),
    "fish": ("fish", "poisson", "m"),
    "cheese": ("cheese", "fromage", "m"),
    "meat": ("meat", "viande", "f"),
    "chocolate": ("chocolate", "chocolat", "m"),
    "music": ("music", "musique", "f"),
    "wine": ("wine", "vin", "m"),
    "juice": ("orange juice", "jus d'orange", "m"),
    "salad": ("salad", "salade", "f"),
}

# ---- Adjectives: English, m, f, m pl, f pl, position ("before" / "after"), m before a vowel ----
ADJ = {
    "small": ("small", "petit", "petite", "petits", "petites", "before", None),
    "big": ("big", "grand", "grande", "grands", "grandes", "before", None),
    "new": ("new", "nouveau", "nouvelle", "nouveaux", "nouvelles", "before", "nouvel"),
    "old": ("old", "vieux", "vieille", "vieux", "vieilles", "before", "vieil"),
    "beautiful": ("beautiful", "beau", "belle", "beaux", "belles", "before", "bel"),
    "red": ("red", "rouge", "rouge", "rouges", "rouges", "after", None),
    "black": ("black", "noir", "noire", "noirs", "noires", "after", None),
    "green": ("green", "vert", "verte", "verts", "vertes", "after", None),
    "white": ("white", "blanc", "blanche", "blancs", "blanches", "after", None),
    "blue": ("blue", "bleu", "bleue", "bleus", "bleues", "after", None),
    "expensive": ("expensive", "cher", "chère", "chers", "chères", "after", None),
    "clean": ("clean", "propre", "propre", "propres", "propres", "after", None),
    "empty": ("empty", "vide", "vide", "vides", "vides", "after", None),
    "open": ("open", "ouvert", "ouverte", "ouverts", "ouvertes", "after", None),
    "closed": ("closed", "fermé", "fermée", "fermés", "fermées", "after", None),
    "hot": ("hot", "chaud", "chaude", "chauds", "chaudes", "after", None),
    "cold": ("cold", "froid", "froide", "froids", "froides", "after", None),
    "heavy": ("heavy", "lourd", "lourde", "lourds", "lourdes", "after", None),
}
# Adjectives for people (être + adjective)
PERSON_ADJ = {
    "tall": ("tall", "grand", "grande", "grands", "grandes"),
    "happy": ("happy", "heureux", "heureuse", "heureux", "heureuses"),
    "tired": ("tired", "fatigué", "fatiguée", "fatigués", "fatiguées"),
    "sad": ("sad", "triste", "triste", "tristes", "tristes"),
    "ready": ("ready", "prêt", "prête", "prêts", "prêtes"),
    "busy": ("busy", "occupé", "occupée", "occupés", "occupées"),
    "young": ("young", "jeune", "jeune", "jeunes", "jeunes"),
    "sick": ("sick", "malade", "malade", "malades", "malades"),
    "late": ("late", "en retard", "en retard", "en retard", "en retard"),
    "angry": ("angry", "en colère", "en colère", "en colère", "en colère"),
    "french": ("French", "français", "française", "français", "françaises"),
    "kind": ("kind", "gentil", "gentille", "gentils", "gentilles"),
    "rich": ("rich", "riche", "riche", "riches", "riches"),
    "strong": ("strong", "fort", "forte", "forts", "fortes"),
    "small": ("short", "petit", "petite", "petits", "petites"),
    "curious": ("curious", "curieux", "curieuse", "curieux", "curieuses"),
}

# ---- Subjects. Each has English text, English person ("1s", "2", "3s", "3p", "1p"), and its French
# readings: (French text, person index 0..5, gender "m"/"f", is_pronoun). ----
PRONOUN_SUBJECTS = [
    ("I", "1s", [("je", 0, "m"), ("je", 0, "f")]),
    ("you", "2", [("tu", 1, "m"), ("tu", 1, "f"), ("vous", 4, "m")]),
    ("he", "3s", [("il", 2, "m")]),
    ("she", "3s", [("elle", 2, "f")]),
    ("we", "1p", [("nous", 3, "m"), ("nous", 3, "f")]),
    ("they", "3p", [("ils", 5, "m"), ("elles", 5, "f")]),
]
NOUN_SUBJECTS = [
    ("my brother", "3s", [("mon frère", 2, "m")]),
    ("my sister", "3s", [("ma sœur", 2, "f")]),
    ("my mother", "3s", [("ma mère", 2, "f")]),
    ("my father", "3s", [("mon père", 2, "m")]),
    ("my friend", "3s", [("mon ami", 2, "m"), ("mon amie", 2, "f")]),
    ("the teacher", "3s", [("le professeur", 2, "m"), ("la professeure", 2, "f")]),
    ("the children", "3p", [("les enfants", 5, "m")]),
    ("the girls", "3p", [("les filles", 5, "f")]),
    ("the boys", "3p", [("les garçons", 5, "m")]),
    ("our parents", "3p", [("nos parents", 5, "m")]),
    ("my friends", "3p", [("mes amis", 5, "m"), ("mes amies", 5, "f")]),
    ("Paul", "3s", [("Paul", 2, "m")]),
    ("Marie", "3s", [("Marie", 2, "f")]),
    ("Tom", "3s", [("Tom", 2, "m")]),
    ("Anna", "3s", [("Anna", 2, "f")]),
]
SUBJECTS = PRONOUN_SUBJECTS + NOUN_SUBJECTS
FR_PRONOUNS = ("je", "tu", "il", "elle", "nous", "vous", "ils", "elles")

# ---- Verbs: English base, English 3rd singular, French conjugation (je tu il nous vous ils), object
# kind, English particle placed after the verb ("listen to", "wait for"). ----
VERBS = {
    "like": ("like", "likes", "aime aimes aime aimons aimez aiment", "definite"),
    "eat": ("eat", "eats", "mange manges mange mangeons mangez mangent", "partitive_food"),
    "drink": ("drink", "drinks", "bois bois boit buvons buvez boivent", "partitive_drink"),
    "see": ("see", "sees", "vois vois voit voyons voyez voient", "the_thing"),
    "watch": ("watch", "watches", "regarde regardes regarde regardons regardez regardent", "watchable"),
    "listen": ("listen to", "listens to", "écoute écoutes écoute écoutons écoutez écoutent", "listenable"),
    "speak": ("speak", "speaks", "parle parles parle parlons parlez parlent", "language"),
    "buy": ("buy", "buys", "achète achètes achète achetons achetez achètent", "indefinite"),
    "have": ("have", "has", "ai as a avons avez ont", "indefinite"),
    "want": ("want", "wants", "veux veux veut voulons voulez veulent", "indefinite"),
    "read": ("read", "reads", "lis lis lit lisons lisez lisent", "readable"),
    "understand": ("understand", "understands", "comprends comprends comprend comprenons comprenez comprennent", "understandable"),
    "know": ("know", "knows", "connais connais connaît connaissons connaissez connaissent", "demonstrative"),
    "wait": ("wait for", "waits for", "attends attends attend attendons attendez attendent", "waitable"),
    "love": ("love", "loves", "adore adores adore adorons adorez adorent", "definite"),
    "open": ("open", "opens", "ouvre ouvres ouvre ouvrons ouvrez ouvrent", "openable"),
    "look": ("look for", "looks for", "cherche cherches cherche cherchons cherchez cherchent", "possessive"),
}
ETRE = "suis es est sommes êtes sont".split()
AVOIR = "ai as a avons avez ont".split()
ALLER = "vais vas va allons allez vont".split()
VOULOIR = "veux veux veut voulons voulez veulent".split()

LANGUAGES = [("French", "français"), ("English", "anglais"), ("German", "allemand"), ("Spanish", "espagnol"), ("Italian", "italien")]
PLACES = [
    ("to school", "à l'école"), ("to the station", "à la gare"), ("to the market", "au marché"),
    ("to the beach", "à la plage"), ("to Paris", "à Paris"), ("to the cinema", "au cinéma"),
    ("to the park", "au parc"), ("to the hospital", "à l'hôpital"), ("to the hotel", "à l'hôtel"),
    ("to the United States", "aux États-Unis"), ("to the library", "à la bibliothèque"),
    ("to the office", "au bureau"), ("to the mountains", "à la montagne"), ("to the sea", "à la mer"),
    ("to London", "à Londres"), ("to Canada", "au Canada"), ("to Italy", "en Italie"), ("home", "à la maison"),
]
INFINITIVES = [
    ("to sleep", "dormir"), ("to eat", "manger"), ("to go home", "rentrer à la maison"),
    ("to learn French", "apprendre le français"), ("to read", "lire"), ("to swim", "nager"),
    ("to dance", "danser"), ("to work", "travailler"), ("to leave", "partir"), ("to sing", "chanter"),
    ("to play", "jouer"), ("to help", "aider"), ("to travel", "voyager"), ("to rest", "se reposer"),
    ("to win", "gagner"), ("to drive", "conduire"), ("to cook", "cuisiner"), ("to understand", "comprendre"),
]
AVOIR_IDIOMS = [("hungry", "faim"), ("thirsty", "soif"), ("cold", "froid"), ("hot", "chaud"), ("afraid", "peur")]

# Object kinds: lists of (English, French positive, French after "pas") built below.
def definite(noun_key, plural):
    en_s, en_p, fr_s, fr_p, g = NOUNS[noun_key]
    if plural:
        return "les " + fr_p
    return join_fr(["le" if g == "m" else "la", fr_s])


def indefinite_np(noun_key, adj_key=None, plural=False):
    """(English, French positive, French after negation) for a/an/some + [adjective] + noun."""
    en_s, en_p, fr_s, fr_p, g = NOUNS[noun_key]
    noun_fr = fr_p if plural else fr_s
    en_noun = en_p if plural else en_s
    words_fr = [noun_fr]
    en_adj = ""
    if adj_key:
        a_en, m, f, mp, fp, pos, m_vowel = ADJ[adj_key]
        form = (mp if g == "m" else fp) if plural else (m if g == "m" else f)
        if not plural and g == "m" and m_vowel and starts_with_vowel(noun_fr):
            form = m_vowel
        words_fr = [form, noun_fr] if pos == "before" else [noun_fr, form]
        en_adj = a_en + " "
    if plural:
        en = en_adj + en_noun
        # des + adjective before the noun becomes "de" in careful French: de petites maisons
        det = "de" if adj_key and ADJ[adj_key][5] == "before" else "des"
        pos_fr = join_fr([det] + words_fr)
    else:
        article = "an" if (en_adj or en_noun)[0] in "aeiou" else "a"
        en = article + " " + en_adj + en_noun
        pos_fr = join_fr(["un" if g == "m" else "une"] + words_fr)
    neg_fr = join_fr(["de"] + words_fr)
    return en, pos_fr, neg_fr


def partitive(mass_key):
    en, fr, g = MASS[mass_key]
    if starts_with_vowel(fr):
        pos = "de l'" + fr
    else:
        pos = ("du " if g == "m" else "de la ") + fr
    return en, pos, join_fr(["de", fr])


def objects(kind):
    """All (English, French, French after pas) objects of a kind."""
    out = []
    if kind in ("definite",):
        for k in ("apple", "orange", "dog", "cat", "bird", "flower", "film", "song", "book", "tree", "mountain", "picture"):
            en_p = NOUNS[k][1]
            out.append((en_p, definite(k, True), definite(k, True)))
        for m in ("chocolate", "music", "coffee", "tea", "cheese", "wine", "water", "fish", "bread", "meat", "salad", "milk"):
            en, fr, g = MASS[m]
            d = join_fr(["le" if g == "m" else "la", fr])
            out.append((en, d, d))
        out.append(("school", "l'école", "l'école"))
        out.append(("the sea", "la mer", "la mer"))
        out.append(("this city", "cette ville", "cette ville"))
    elif kind == "partitive_food":
        for m in ("bread", "soup", "rice", "fish", "cheese", "meat", "chocolate", "salad"):
            out.append(partitive(m))
        for k in ("apple", "orange"):
            out.append((NOUNS[k][1], "des " + NOUNS[k][3], join_fr(["de", NOUNS[k][3]])))
        out.append(("an apple", "une pomme", "de pomme"))
        out.append(("an orange", "une orange", "d'orange"))
    elif kind == "partitive_drink":
        for m in ("water", "coffee", "tea", "milk", "wine", "juice"):
            out.append(partitive(m))
    elif kind == "the_thing":
        for k in ("house", "tree", "bird", "car", "dog", "cat", "mountain", "river", "school", "hotel", "man", "woman", "child", "girl", "boy", "train", "bus", "station", "door"):
            d = definite(k, False)
            out.append(("the " + NOUNS[k][0], d, d))
        for k in ("birds", "trees", "mountains", "children"):
            key = {"birds": "bird", "trees": "tree", "mountains": "mountain", "children": "child"}[k]
            d = definite(key, True)
            out.append(("the " + NOUNS[key][1], d, d))
        out.append(("the sea", "la mer", "la mer"))
    elif kind == "watchable":
        out += [("television", "la télévision", "la télévision"), ("the film", "le film", "le film"),
                ("the children", "les enfants", "les enfants"), ("the birds", "les oiseaux", "les oiseaux"),
                ("the news", "les informations", "les informations"), ("the game", "le match", "le match"),
                ("the sea", "la mer", "la mer"), ("the trains", "les trains", "les trains")]
    elif kind == "listenable":
        out += [("music", "de la musique", "de musique"), ("the radio", "la radio", "la radio"),
                ("the teacher", "le professeur", "le professeur"), ("this song", "cette chanson", "cette chanson"),
                ("the birds", "les oiseaux", "les oiseaux"), ("my mother", "ma mère", "ma mère"),
                ("his father", "son père", "son père"), ("her friends", "ses amis", "ses amis")]
    elif kind == "language":
        for en, fr in LANGUAGES:
            out.append((en, fr, fr))
    elif kind == "indefinite":
        for k in ("car", "house", "dog", "cat", "book", "computer", "bike", "garden", "hat", "bag", "shirt", "phone", "key", "chair"):
            out.append(indefinite_np(k))
        for k, a in (("car", "red"), ("car", "new"), ("car", "old"), ("house", "big"), ("house", "small"),
                     ("dog", "small"), ("dog", "black"), ("computer", "new"), ("computer", "old"), ("bike", "blue"),
                     ("hat", "green"), ("bag", "heavy"), ("shirt", "white"), ("garden", "beautiful"), ("hotel", "beautiful"),
                     ("house", "beautiful"), ("cat", "white"), ("book", "expensive"), ("room", "clean"), ("apartment", None)):
            if k in NOUNS:
                out.append(indefinite_np(k, a))
        for k, a in (("flower", None), ("book", None), ("shoe", "black"), ("key", None), ("chair", "new"), ("apple", "green")):
            out.append(indefinite_np(k, a, plural=True))
    elif kind == "readable":
        out += [("a book", "un livre", "de livre"), ("the newspaper", "le journal", "le journal"),
                ("the letter", "la lettre", "la lettre"), ("this book", "ce livre", "ce livre"),
                ("the question", "la question", "la question"), ("books", "des livres", "de livres"),
                ("newspapers", "des journaux", "de journaux"), ("the menu", "le menu", "le menu")]
    elif kind == "understandable":
        out += [("the question", "la question", "la question"), ("the problem", "le problème", "le problème"),
                ("French", "le français", "le français"), ("this idea", "cette idée", "cette idée"),
                ("the teacher", "le professeur", "le professeur"), ("the answer", "la réponse", "la réponse"),
                ("this letter", "cette lettre", "cette lettre"), ("the rules", "les règles", "les règles")]
    elif kind == "demonstrative":
        for k in ("city", "man", "woman", "song", "hotel", "street", "girl", "boy", "book", "film", "garden", "river"):
            en_s, en_p, fr_s, fr_p, g = NOUNS[k]
            det = ("cet" if starts_with_vowel(fr_s) else "ce") if g == "m" else "cette"
            out.append(("this " + en_s, det + " " + fr_s, det + " " + fr_s))
        for k in ("children", "songs", "women"):
            key = {"children": "child", "songs": "song", "women": "woman"}[k]
            out.append(("these " + NOUNS[key][1], "ces " + NOUNS[key][3], "ces " + NOUNS[key][3]))
    elif kind == "waitable":
        out += [("the bus", "le bus", "le bus"), ("the train", "le train", "le train"), ("my brother", "mon frère", "mon frère"),
                ("the teacher", "le professeur", "le professeur"), ("the answer", "la réponse", "la réponse"),
                ("my friends", "mes amis", "mes amis"), ("the doctor", "le médecin", "le médecin"), ("the rain", "la pluie", "la pluie")]
    elif kind == "openable":
        for k in ("door", "window", "book", "bag", "letter", "shop"):
            if k == "shop":
                out.append(("the shop", "le magasin", "le magasin"))
                continue
            d = definite(k, False)
            out.append(("the " + NOUNS[k][0], d, d))
        out.append(("the windows", "les fenêtres", "les fenêtres"))
    return out


POSSESSIVES = {  # person index → (English, French m, French f, French pl)
    0: ("my", "mon", "ma", "mes"), 1: ("your", "ton", "ta", "tes"), 2: None,
    3: ("our", "notre", "notre", "nos"), 4: ("your", "votre", "votre", "vos"), 5: ("their", "leur", "leur", "leurs"),
}


def possessive_objects(en_subject, person, gender):
    """look for + one's own thing: the possessive agrees with the subject's person, the thing's gender."""
    if person == 2:
        en_pos = {"he": "his", "she": "her"}.get(en_subject.lower(), "his" if gender == "m" else "her")
        fr = ("son", "sa", "ses")
    else:
        en_pos = POSSESSIVES[person][0]
        fr = POSSESSIVES[person][1:]
    if en_subject == "you":
        en_pos = "your"
    out = []
    for k, plural in (("key", True), ("bag", False), ("phone", False), ("book", False), ("shoe", True), ("hat", False), ("car", False), ("dog", False), ("cat", False), ("idea", False)):
        en_s, en_p, fr_s, fr_p, g = NOUNS[k]
        if plural:
            f = fr[2] + " " + fr_p
        else:
            det = fr[0] if g == "m" or starts_with_vowel(fr_s) else fr[1]
            f = det + " " + fr_s
        out.append((en_pos + " " + (en_p if plural else en_s), f, f))
    return out


def en_verb(verb, en_person):
    base, third = verb[0], verb[1]
    return third if en_person == "3s" else base


def en_do(en_person):
    return "does" if en_person == "3s" else "do"


def en_be(en_person):
    return {"1s": "am", "3s": "is"}.get(en_person, "are")


def en_be_neg(en_subject, en_person):
    if en_person == "1s":
        return en_subject + " am not", "I'm not"
    return en_subject + " " + ("isn't" if en_person == "3s" else "aren't"), None


def inversion(verb_form, pronoun):
    """aime + il → aime-t-il ; boit + il → boit-il ; mangeons + nous → mangeons-nous."""
    if pronoun in ("il", "elle") and verb_form[-1] in "ae":
        return verb_form + "-t-" + pronoun
    return verb_form + "-" + pronoun


def questions(fr_subject, is_pronoun, verb_form, rest):
    """French yes/no questions: est-ce que …, inversion (pronoun subjects), intonation."""
    rest_words = rest.split() if rest else []
    forms = [join_fr(["Est-ce", "que", fr_subject, verb_form] + rest_words) + " ?"]
    if is_pronoun and fr_subject != "je":
        forms.append(cap(join_fr([inversion(verb_form, fr_subject)] + rest_words)) + " ?")
    forms.append(cap(join_fr([fr_subject, verb_form] + rest_words)) + " ?")
    return forms


def statement(fr_subject, verb_form, rest, negative):
    words = [fr_subject] + (["ne", verb_form, "pas"] if negative else [verb_form]) + (rest.split() if rest else [])
    return cap(join_fr(words)) + "."


def gen_verb_sentences(rng, pairs):
    for vkey, verb in VERBS.items():
        conj = verb[2].split()
        kind = verb[3]
        for en_subject, en_person, readings in SUBJECTS:
            is_pronoun = en_subject in ("I", "you", "he", "she", "we", "they")
            objs_for = objects(kind) if kind != "possessive" else None
            for mode in ("pos", "neg", "q"):
                # One object per (verb, subject, mode) chosen at random keeps every verb and subject
                # represented without the file growing with the product of all lists.
                for _ in range(2 if is_pronoun else 1):
                    if kind == "possessive":
                        objs = possessive_objects(en_subject, readings[0][1], readings[0][2])
                    else:
                        objs = objs_for
                    idx = rng.randrange(len(objs))
                    en_vp = en_verb(verb, en_person)
                    if mode == "pos":
                        en = f"{en_subject} {en_vp} {objs[idx][0]}."
                    elif mode == "neg":
                        en = f"{en_subject} {en_do(en_person)}n't {verb[0]} {objs[idx][0]}."
                    else:
                        en = f"{cap(en_do(en_person))} {en_subject} {verb[0]} {objs[idx][0]}?"
                    frs = []
                    for fr_subject, person, gender in readings:
                        if kind == "possessive":
                            o = possessive_objects(en_subject, person, gender)[idx]
                        else:
                            o = objs[idx]
                        form = conj[person]
                        if mode == "pos":
                            frs.append(statement(fr_subject, form, o[1], False))
                        elif mode == "neg":
                            frs.append(statement(fr_subject, form, o[2], True))
                        else:
                            frs.extend(questions(fr_subject, is_pronoun, form, o[1]))
                    add(pairs, cap(en), frs)


def gen_be_adjective(rng, pairs):
    for en_subject, en_person, readings in SUBJECTS:
        keys = list(PERSON_ADJ)
        for key in rng.sample(keys, 8):
            a = PERSON_ADJ[key]
            for mode in ("pos", "neg", "q"):
                if rng.random() < 0.35:
                    continue
                if mode == "pos":
                    en = f"{en_subject} {en_be(en_person)} {a[0]}."
                elif mode == "neg":
                    en = en_be_neg(en_subject, en_person)[0] + f" {a[0]}."
                else:
                    en = f"{cap(en_be(en_person))} {en_subject} {a[0]}?"
                frs = []
                for fr_subject, person, gender in readings:
                    plural = person in (3, 5)
                    form = (a[3] if gender == "m" else a[4]) if plural else (a[1] if gender == "m" else a[2])
                    if mode == "q":
                        frs.extend(questions(fr_subject, fr_subject in FR_PRONOUNS, ETRE[person], form))
                    else:
                        frs.append(statement(fr_subject, ETRE[person], form, mode == "neg"))
                add(pairs, cap(en), frs)


def gen_avoir_idioms(rng, pairs):
    for en_subject, en_person, readings in SUBJECTS:
        for en_adj, fr_noun in AVOIR_IDIOMS:
            mode = rng.choice(("pos", "neg", "q"))
            if mode == "pos":
                en = f"{en_subject} {en_be(en_person)} {en_adj}."
            elif mode == "neg":
                en = en_be_neg(en_subject, en_person)[0] + f" {en_adj}."
            else:
                en = f"{cap(en_be(en_person))} {en_subject} {en_adj}?"
            frs = []
            for fr_subject, person, gender in readings:
                if mode == "q":
                    frs.extend(questions(fr_subject, fr_subject in FR_PRONOUNS, AVOIR[person], fr_noun))
                else:
                    frs.append(statement(fr_subject, AVOIR[person], fr_noun, mode == "neg"))
            add(pairs, cap(en), frs)


def gen_noun_is_adjective(rng, pairs):
    for key, (en_s, en_p, fr_s, fr_p, g) in NOUNS.items():
        if key in PEOPLE:
            continue  # people take PERSON_ADJ, through the noun subjects
        for plural in (False, True):
            for akey in rng.sample(list(ADJ), 4):
                a = ADJ[akey]
                neg = rng.random() < 0.4
                form = (a[3] if g == "m" else a[4]) if plural else (a[1] if g == "m" else a[2])
                verb = "sont" if plural else "est"
                if plural:
                    en = f"the {en_p} {'are' if not neg else 'are not'} {a[0]}."
                else:
                    en = f"the {en_s} {'is' if not neg else 'is not'} {a[0]}."
                add(pairs, cap(en), [statement(definite(key, plural), verb, form, neg)])
    for key, (en, fr, g) in MASS.items():
        for akey in ("hot", "cold", "expensive"):
            a = ADJ[akey]
            form = a[1] if g == "m" else a[2]
            subj = join_fr(["le" if g == "m" else "la", fr])
            add(pairs, cap(f"the {en} is {a[0]}."), [statement(subj, "est", form, False)])


def gen_aller(rng, pairs):
    for en_subject, en_person, readings in SUBJECTS:
        for en_place, fr_place in rng.sample(PLACES, 7):
            mode = rng.choice(("pos", "pos", "neg", "q"))
            en_go = "goes" if en_person == "3s" else "go"
            if mode == "pos":
                en = f"{en_subject} {en_go} {en_place}."
            elif mode == "neg":
                en = f"{en_subject} {en_do(en_person)}n't go {en_place}."
            else:
                en = f"{cap(en_do(en_person))} {en_subject} go {en_place}?"
            frs = []
            for fr_subject, person, gender in readings:
                if mode == "q":
                    frs.extend(questions(fr_subject, fr_subject in FR_PRONOUNS, ALLER[person], fr_place))
                else:
                    frs.append(statement(fr_subject, ALLER[person], fr_place, mode == "neg"))
            add(pairs, cap(en), frs)


def gen_vouloir(rng, pairs):
    for en_subject, en_person, readings in SUBJECTS:
        for en_inf, fr_inf in rng.sample(INFINITIVES, 7):
            mode = rng.choice(("pos", "neg", "q"))
            en_w = "wants" if en_person == "3s" else "want"
            if mode == "pos":
                en = f"{en_subject} {en_w} {en_inf}."
            elif mode == "neg":
                en = f"{en_subject} {en_do(en_person)}n't want {en_inf}."
            else:
                en = f"{cap(en_do(en_person))} {en_subject} want {en_inf}?"
            frs = []
            for fr_subject, person, gender in readings:
                if mode == "q":
                    frs.extend(questions(fr_subject, fr_subject in FR_PRONOUNS, VOULOIR[person], fr_inf))
                else:
                    frs.append(statement(fr_subject, VOULOIR[person], fr_inf, mode == "neg"))
            add(pairs, cap(en), frs)


def gen_where(pairs):
    for key, (en_s, en_p, fr_s, fr_p, g) in NOUNS.items():
        add(pairs, f"Where is the {en_s}?", [f"Où est {definite(key, False)} ?"])
        if key in ("key", "shoe", "child", "book", "flower", "bag", "girl", "boy", "cat", "dog"):
            add(pairs, f"Where are the {en_p}?", [f"Où sont {definite(key, True)} ?"])


def add(pairs, en, frs):
    """Keeps the first MAX_REFERENCES distinct translations. Questions come as runs of three forms
    per reading (est-ce que, inversion, intonation); taking the forms in turn across readings
    keeps both "ils" and "elles" among the references of "Do they …?"."""
    if any(f.endswith("?") for f in frs):
        runs, run = [], []
        for f in frs:
            if f.startswith("Est-ce") and run:
                runs.append(run)
                run = []
            run.append(f)
        runs.append(run)
        frs = [r[i] for i in range(3) for r in runs if i < len(r)]
    seen = []
    for f in frs:
        if f not in seen:
            seen.append(f)
    if en not in pairs:
        pairs[en] = seen[:MAX_REFERENCES]


LOWER_FIRST_EN = ("He ", "She ", "We ", "You ", "They ", "My ", "The ", "Our ")
LOWER_FIRST_FR = ("Il ", "Elle ", "Nous ", "Vous ", "Tu ", "Ils ", "Elles ", "Je ", "J'", "Mon ", "Ma ", "Mes ", "Le ",
                  "La ", "Les ", "L'", "Nos ")


def lower_first(text, starts):
    """The second clause of a compound sentence starts in lower case (but "I", Paul, Marie keep theirs)."""
    return text[0].lower() + text[1:] if text.startswith(starts) else text


def gen_compounds(rng, simple, count, clauses):
    """Statements joined by "and" / "but" (et / mais): longer sources for BLEU by source length and
    for the alignment of a long sentence. References: the clauses' translations combined, at most
    MAX_REFERENCES."""
    statements = [(en, frs) for en, frs in simple.items() if en.endswith(".") and not en.startswith("Where")]
    out = {}
    while len(out) < count:
        parts = rng.sample(statements, clauses)
        # "A, B, and C" / "A, B et C": only the last clause gets the conjunction.
        words = [None] * (clauses - 2) + [rng.choice((("and", "et"), ("but", "mais")))]
        en = parts[0][0][:-1]
        for word, (part, _) in zip(words, parts[1:]):
            en += ", " + (word[0] + " " if word else "") + lower_first(part[:-1], LOWER_FIRST_EN)
        refs = [""]
        for i, (_, frs) in enumerate(parts):
            word = None if i == 0 else words[i - 1]
            head = "" if i == 0 else (" " + word[1] + " " if word and word[1] == "et" else ", " + (word[1] + " " if word else ""))
            refs = [r + head + (f[:-1] if i == 0 else lower_first(f[:-1], LOWER_FIRST_FR)) for r in refs for f in frs]
        out[en + "."] = [r + "." for r in refs][:MAX_REFERENCES]
    return out


def generate():
    rng = random.Random(SEED)
    pairs = {}
    gen_verb_sentences(rng, pairs)
    gen_be_adjective(rng, pairs)
    gen_avoir_idioms(rng, pairs)
    gen_noun_is_adjective(rng, pairs)
    gen_aller(rng, pairs)
    gen_vouloir(rng, pairs)
    gen_where(pairs)
    # The engine splits by source sentence from the file's order and a seed; a shuffled file keeps
    # every kind of sentence on both sides of any split.
    items = list(pairs.items())
    rng.shuffle(items)
    items = items[:TARGET_SOURCES]
    simple = dict(items)
    items += list(gen_compounds(rng, simple, TWO_CLAUSES, 2).items())
    items += list(gen_compounds(rng, simple, THREE_CLAUSES, 3).items())
    rng.shuffle(items)
    lines = []
    for en, frs in items:
        for f in frs:
            lines.append(f"{en}\t{f}\n")
    return "".join(lines)


def main():
    text = generate()
    if "--check" in sys.argv:
        with open(OUT, encoding="utf-8") as f:
            same = f.read() == text
        print("pairs-en-fr.tsv is up to date" if same else "pairs-en-fr.tsv differs from the generator's output")
        sys.exit(0 if same else 1)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    n_sources = len({line.split("\t")[0] for line in text.splitlines()})
    print(f"wrote {OUT}: {text.count(chr(10))} pairs, {n_sources} English sentences, {len(text.encode())} bytes")


if __name__ == "__main__":
    main()
