"""Korean particles after a word: 이/가, 은/는, 을/를, 과/와, (으)로, chosen by how the word ends.

Shared by the task author (``author.josa`` fills every question's particles) and ``bench
validate`` (which reports a particle that does not fit the word before it).
"""

from __future__ import annotations

__all__ = ["josa", "particle"]


#: Letters and digits whose Korean reading ends in a final consonant (엘, 엠, 엔, 알; 영, 일, 삼, 육, 칠, 팔).
_FINAL_CONSONANT_LATIN = set("LMNRlmnr013678")


def particle(word: str, after_consonant: str, after_vowel: str) -> str:
    """The particle that follows ``word``: chosen by its last syllable's final consonant.

    >>> particle("현대모비스", "이", "가"), particle("SK텔레콤", "이", "가"), particle("가정폭력방지법", "은", "는")
    ('가', '이', '은')
    >>> particle("NAVER", "이", "가"), particle("KT", "이", "가"), particle("LG", "이", "가"), particle("Samsung", "이", "가")
    ('가', '가', '가', '이')
    """
    tail = word.rstrip(" '\"」』)")
    ch = tail[-1] if tail else ""
    if "가" <= ch <= "힣":
        final = (ord(ch) - 0xAC00) % 28
        # 으로/로: a final ㄹ (index 8) takes 로 like a vowel
        if after_vowel == "로" and final == 8:
            return after_vowel
        return after_consonant if final else after_vowel
    latin = len(tail) - len(tail.rstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"))
    run = tail[len(tail) - latin:]
    if latin >= 4 and any(c in "AEIOUaeiou" for c in run):
        # Read as a word, not letter by letter (NAVER 네이버, not 엔에이브이이알): only a final
        # l/m/n (ng) keeps a final consonant in Korean; -er/-or and k/t/p (크, 트, 프) end in a vowel.
        return after_consonant if run[-1] in "LMNlmn" or run[-2:].lower() == "ng" else after_vowel
    return after_consonant if ch in _FINAL_CONSONANT_LATIN else after_vowel


def josa(word: str, after_consonant: str, after_vowel: str) -> str:
    """``word`` with its particle (``josa("현대모비스", "이", "가")`` → ``"현대모비스가"``)."""
    return word + particle(word, after_consonant, after_vowel)
