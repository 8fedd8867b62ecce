"""The game page and its per-phase partials. (stub)"""

from django.http import HttpResponse


def game_page(request, public_id):
    return HttpResponse("not yet", status=501)


def panel(request, public_id):
    return HttpResponse("not yet", status=501)


def act(request, public_id):
    return HttpResponse("not yet", status=501)
