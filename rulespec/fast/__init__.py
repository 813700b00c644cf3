"""fast"""
