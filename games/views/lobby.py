"""Lobby: home (open games), create, join, leave, invite link, my games, help. (stub)"""

from django.http import HttpResponse
from django.shortcuts import render


def home(request):
    return render(request, "home.html")


def help_page(request):
    return HttpResponse("help", status=501)


def game_new(request):
    return HttpResponse("not yet", status=501)


def my_games(request):
    return HttpResponse("not yet", status=501)


def game_join(request, public_id):
    return HttpResponse("not yet", status=501)


def game_leave(request, public_id):
    return HttpResponse("not yet", status=501)


def invite(request, public_id, token):
    return HttpResponse("not yet", status=501)
